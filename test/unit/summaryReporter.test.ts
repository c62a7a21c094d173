import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// A real Vitest run over fixture files: one that passes, one whose beforeAll throws, one whose
// import fails. The plain closing line must count the two that could not run as failed.

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = fileURLToPath(new URL('../support/fixtures/summary/vitest.config.ts', import.meta.url));

it('counts a test file whose setup throws, or whose import fails, as failed', async () => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', config], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(output).toMatch(/^1 passed, 2 failed, 1 skipped$/m);
  expect(code).not.toBe(0);
}, 120_000);
