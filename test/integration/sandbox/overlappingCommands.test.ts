import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInPty } from '../../../main/tools/bash';
import { WorkspaceSandbox, type SandboxedCommand } from '../../../main/sandbox/workspaceSandbox';
import { sandboxWorksHere } from '../../support/sandboxProbe';

// Two sandboxed commands at once in one folder (helpers working in place, a sandboxed MCP server
// beside a command): the empty files bubblewrap mounts over to protect `.bashrc` and the like are
// shared, and the first command to end must not remove them while the other still runs. Removed,
// a mount point's mount is gone in the other command's namespace too, and that one could write
// the very `.bashrc` the sandbox forbids.

const works = await sandboxWorksHere('two sandboxed commands at once');
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-overlap-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(wrapped: SandboxedCommand, command: string, cwd: string) {
  return runInPty(command, { cwd, timeoutMs: 30_000, env: wrapped.env, invocation: { file: wrapped.file, args: wrapped.args, name: 'bash' } });
}

describe.runIf(works)('two sandboxed commands at once', () => {
  it('keep the protected files protected until the last one ends, and leave no placeholder', async () => {
    const workspace = join(tmp, 'ws');
    mkdirSync(workspace);
    execFileSync('git', ['init', '-q', workspace]);
    const before = readdirSync(workspace).sort();
    const sandbox = new WorkspaceSandbox({ workspace, dataDir: join(tmp, 'data'), setting: 'required', scratchRoot: join(tmp, 'scratch') });
    try {
      expect((await sandbox.start()).state).toBe('on');
      // Both wrapped before either runs, so each noted every protected file as its own placeholder.
      const waits = 'while [ ! -f go ]; do sleep 0.05; done; echo pwned > .bashrc; echo wrote=$?';
      const short = await sandbox.wrap('true', 's');
      const long = await sandbox.wrap(waits, 's');
      const longRun = run(long, waits, workspace);
      await until(() => existsSync(join(workspace, '.bashrc')), 'the long command’s mount points');
      await run(short, 'true', workspace);
      await short.done();
      writeFileSync(join(workspace, 'go'), '');
      const result = await longRun;
      await long.done();
      expect(result.output.text).toMatch(/\.bashrc: (Read-only file system|Permission denied)/);
      expect(existsSync(join(workspace, '.bashrc'))).toBe(false);
      rmSync(join(workspace, 'go'));
      expect(readdirSync(workspace).sort()).toEqual(before);
    } finally {
      await sandbox.dispose();
    }
  }, 60_000);
});

async function until(ok: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
