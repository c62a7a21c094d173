#!/usr/bin/env node
// `npm test`: the type-check, the lint and the test build, then every test. The checks do not
// depend on one another, and each of them uses one core, so they run side by side (as many at a
// time as there are cores); the tests start once they have all passed. The steps are read from
// package.json's scripts `typecheck`, `lint` and `build:test`, so those stay the one list.
// Arguments are passed to `vitest run`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };

const checks = ['typecheck', 'lint', 'build:test'].flatMap((name) => scripts[name].split('&&').map((command) => command.trim()));

/** Runs `command` in a shell at the repository root; its output is kept for when it ends. */
function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => resolve({ command, ok: code === 0, code: code ?? signal, output, seconds: (performance.now() - started) / 1000 }));
  });
}

/** Runs every command, at most `width` at a time, printing each one's result as it ends. */
async function runAll(commands, width) {
  const waiting = [...commands];
  const results = [];
  const lane = async () => {
    for (let command = waiting.shift(); command !== undefined; command = waiting.shift()) {
      const result = await run(command);
      results.push(result);
      const mark = result.ok ? 'ok' : `FAILED (${result.code})`;
      console.log(`> ${command}: ${mark} in ${result.seconds.toFixed(1)} s`);
      if (!result.ok && result.output) console.log(result.output.trimEnd());
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, commands.length) }, lane));
  return results;
}

const results = await runAll(checks, Math.max(2, availableParallelism()));
if (results.some((result) => !result.ok)) {
  console.error(`\nnpm test: ${results.filter((result) => !result.ok).length} check(s) failed; the tests did not run.`);
  process.exit(1);
}
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
vitest.on('close', (code) => process.exit(code === 0 ? 0 : 1));
