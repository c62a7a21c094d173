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

  it('fails when an import crosses a layer: platform into a feature, the window into main, main into the window', () => {
    const root = fixture({
      'main/platform/paths.ts': "import { b } from '../../common/limits';\nexport const a = b;\n",
      'main/terminal/env.ts': "import { a } from '../platform/paths';\nexport const c = a;\n",
      'renderer/.keep': '',
      'common/limits.ts': 'export const b = 1;\n',
    });
    const run = (folders: string[]) => spawnSync(process.execPath, [script, ...folders], { cwd: root, encoding: 'utf8' });
    expect(run(['main', 'common']).status).toBe(0);
    writeFileSync(join(root, 'main/platform/paths.ts'), "import type { c } from '../terminal/env';\nexport const a = 1;\nexport type C = typeof c;\n");
    writeFileSync(join(root, 'renderer/chat.ts'), "import { a } from '../main/platform/paths';\nexport const d = a;\n");
    writeFileSync(join(root, 'main/terminal/view.ts'), "import { d } from '../../renderer/chat';\nexport const e = d;\n");
    const crossed = run(['main', 'common', 'renderer']);
    expect(crossed.status).toBe(1);
    expect(crossed.stderr).toContain('Layer crossed: main/platform/paths.ts imports main/terminal/env.ts (main/platform/ imports no feature folder)');
    expect(crossed.stderr).toContain('Layer crossed: renderer/chat.ts imports main/platform/paths.ts');
    expect(crossed.stderr).toContain('Layer crossed: main/terminal/view.ts imports renderer/chat.ts');
  });

  it('passes on this repository', () => {
    const run = spawnSync(process.execPath, [script], { cwd: resolve('.'), encoding: 'utf8' });
    expect(run.stderr).not.toContain('Import cycle:');
    expect(run.stderr).not.toContain('Layer crossed');
    expect(run.status).toBe(0);
  });
});
