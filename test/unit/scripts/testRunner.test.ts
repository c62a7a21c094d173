import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/test.mjs (`npm test`) on a project of its own: a package.json whose typecheck, lint and
// build:test scripts are small node commands, and a stand-in for Vitest that says what it was given.

const script = resolve('scripts/test.mjs');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A node command that runs `code` (the project folder is its cwd). */
const node = (code: string) => `node -e ${JSON.stringify(code)}`;
const mark = (name: string) => node(`require('fs').writeFileSync('${name}.done', '')`);

function project(scripts: { typecheck: string; lint: string; 'build:test': string }, vitestExit = 0): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'keel-npm-test-')));
  folders.push(root);
  mkdirSync(join(root, 'scripts'));
  copyFileSync(script, join(root, 'scripts', 'test.mjs'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', scripts }));
  mkdirSync(join(root, 'node_modules', 'vitest'), { recursive: true });
  // Records which checks had finished when the tests started, and the arguments it got.
  writeFileSync(
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    `import { readdirSync, writeFileSync } from 'node:fs';\n` +
      `writeFileSync('vitest.json', JSON.stringify({ args: process.argv.slice(2), done: readdirSync('.').filter((f) => f.endsWith('.done')).sort() }));\n` +
      `process.exit(${vitestExit});\n`,
  );
  return root;
}

function npmTest(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  const vitest = existsSync(join(root, 'vitest.json'))
    ? (JSON.parse(readFileSync(join(root, 'vitest.json'), 'utf8')) as { args: string[]; done: string[] })
    : null;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, vitest };
}

describe('scripts/test.mjs (npm test)', () => {
  it('runs every step of typecheck, lint and build:test, then Vitest with the arguments given', () => {
    const root = project({ typecheck: `${mark('tsc-a')} && ${mark('tsc-b')}`, lint: `${mark('eslint')} && ${mark('prettier')}`, 'build:test': mark('build') });
    const result = npmTest(root, 'test/unit/one.test.ts', '--project', 'shared');
    expect(result.status).toBe(0);
    expect(result.vitest).toEqual({
      args: ['run', 'test/unit/one.test.ts', '--project', 'shared'],
      done: ['build.done', 'eslint.done', 'prettier.done', 'tsc-a.done', 'tsc-b.done'],
    });
  });

  it('runs the checks side by side: one that waits for another still ends', () => {
    // The first step waits for the last one's mark: one after another, it would give up and fail.
    const waitForBuild = node(
      `const fs = require('fs'); const end = Date.now() + 30000; const poll = () => fs.existsSync('build.done') ? fs.writeFileSync('waited.done', '') : Date.now() > end ? process.exit(1) : setTimeout(poll, 20); poll();`,
    );
    const root = project({ typecheck: waitForBuild, lint: mark('eslint'), 'build:test': mark('build') });
    const result = npmTest(root);
    expect(result.status).toBe(0);
    expect(result.vitest?.done).toEqual(['build.done', 'eslint.done', 'waited.done']);
  });

  it('does not start the tests when a check fails, says which, shows its output, and exits 1', () => {
    const root = project({
      typecheck: mark('tsc'),
      lint: `${node("console.error('src/a.ts: 1 problem'); process.exit(2)")} && ${mark('prettier')}`,
      'build:test': mark('build'),
    });
    const result = npmTest(root);
    expect(result.status).toBe(1);
    expect(result.vitest).toBeNull();
    expect(result.stdout).toContain('FAILED (2)');
    expect(result.stdout).toContain('src/a.ts: 1 problem');
    expect(result.stderr).toContain('1 check(s) failed; the tests did not run.');
    // The other checks still ran, so one run shows every problem.
    expect(existsSync(join(root, 'tsc.done'))).toBe(true);
    expect(existsSync(join(root, 'build.done'))).toBe(true);
  });

  it('exits 1 when the tests fail', () => {
    const root = project({ typecheck: mark('tsc'), lint: mark('eslint'), 'build:test': mark('build') }, 1);
    const result = npmTest(root);
    expect(result.vitest?.done).toEqual(['build.done', 'eslint.done', 'tsc.done']);
    expect(result.status).toBe(1);
  });
});
