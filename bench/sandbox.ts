import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashTool } from '../main/tools/bash';
import { WorkspaceSandbox } from '../main/sandbox/workspaceSandbox';
import { sized } from './quick';

const RUNS = sized(20, 5);

/** `true` through the bash tool, sandboxed against plain, same run: the sandbox's added cost per command. */
export async function benchSandbox(): Promise<void> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-sandbox-')));
  const sandbox = new WorkspaceSandbox({ workspace, dataDir: join(workspace, '.data'), setting: 'auto', scratchRoot: join(workspace, '.scratch') });
  try {
    const started = performance.now();
    const status = await sandbox.start();
    const startMs = performance.now() - started;
    // Nothing to compare without a sandbox: the bench says why and fails (the tests need one too).
    if (status.state !== 'on') throw new Error(`no sandbox works here, so there is nothing to measure: ${JSON.stringify(status)}`);
    const time = async (confined: boolean) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await bashTool.run({ command: 'true' }, { workspace, signal: new AbortController().signal, sessionId: 'bench', ...(confined ? { sandbox } : {}) });
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    };
    const plain = await time(false);
    const confined = await time(true);
    console.log(
      `sandbox: helper start + check ${startMs.toFixed(0)} ms; bash tool \`true\` median of ${RUNS}: plain ${plain.toFixed(0)} ms, sandboxed ${confined.toFixed(0)} ms (+${(confined - plain).toFixed(0)} ms)`,
    );
  } finally {
    await sandbox.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
}
