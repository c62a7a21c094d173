import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = resolve('scripts/check-cycles.mjs');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder of source files, by relative path. */
function fixture(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'keel-cycles-')));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [script, 'src'], { cwd: root, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('scripts/check-cycles.mjs', () => {
  it('fails on a cycle made only of type imports, naming every file around it', () => {
    const root = fixture({
      'src/card.tsx': "import type { Item } from './body';\nexport const card = 1;\n",
      'src/body.tsx': "import type { Card } from './types/index';\nexport type Item = string;\n",
      'src/types/index.ts': "export type { card as Card } from '../card';\n",
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Import cycle: src/body.tsx → src/types/index.ts → src/card.tsx → src/body.tsx');
    expect(result.stderr).toContain('1 import cycle (type-only imports count too)');
  });

  it('follows `.js` specifiers to their `.ts` files and ignores imports in comments', () => {
    const root = fixture({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': "// import { a } from './a';\n/* import { a } from './a'; */\nexport const b = 1;\n",
    });
    expect(check(root)).toMatchObject({ status: 0, stdout: expect.stringContaining('No import cycles among 2 files') });
    writeFileSync(join(root, 'src/b.ts'), "import { a } from './a';\nexport const b = a;\n");
    expect(check(root)).toMatchObject({ status: 1, stderr: expect.stringContaining('Import cycle: src/a.ts → src/b.ts → src/a.ts') });
  });

  it('passes on this repository', () => {
    const run = spawnSync(process.execPath, [script], { cwd: resolve('.'), encoding: 'utf8' });
    expect(run.stderr).not.toContain('Import cycle:');
    expect(run.status).toBe(0);
  });
});
