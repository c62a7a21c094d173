import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forkNodeHelper } from '../../../main/sandbox/helperProcess';
import { startAgentHarness } from '../../support/agentHarness';
import { sandboxWorksHere } from '../../support/sandboxProbe';
import { reply, text } from '../../support/scriptedAnthropic';

// A `keel run` whose task ends before the sandbox's start-up check does (a few hundred
// milliseconds, no command in it) closes the sandbox mid-check: nothing failed, and Keel must not
// end the run with "warning: sandbox unavailable: the sandbox helper ended (exit 0)".

const works = await sandboxWorksHere('closedDuringCheck.test.ts');
const scratch = mkdtempSync(join(tmpdir(), 'keel-closed-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sandboxLogs = (logs: string[]) => logs.filter((line) => line.includes('sandbox unavailable'));

describe('the sandbox warning at start-up', () => {
  it.runIf(works)('is not given when the folder closes while the check runs', async () => {
    const logs: string[] = [];
    const harness = await startAgentHarness([reply(text('Nothing to run.'))], {
      settingsFromFile: true,
      settingsFile: { sandbox: 'auto' },
      core: { log: (message) => logs.push(message) },
    });
    const sandbox = harness.core.currentSandbox!;
    expect(sandbox.status).toEqual({ state: 'checking' });
    await harness.close();
    expect((await sandbox.start()).state).toBe('unavailable');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sandboxLogs(logs)).toEqual([]);
  });

  it('is given when the check fails while the folder is open', async () => {
    const logs: string[] = [];
    // A helper that ends at once, as one whose runtime cannot load would.
    const ends = join(scratch, 'ends.mjs');
    writeFileSync(ends, 'process.exit(3);\n');
    const harness = await startAgentHarness([], {
      settingsFromFile: true,
      settingsFile: { sandbox: 'auto' },
      core: { log: (message) => logs.push(message), sandboxLauncher: (_file, launch) => forkNodeHelper({ path: ends, execArgv: [] }, launch) },
    });
    try {
      expect(await harness.core.currentSandbox!.start()).toMatchObject({ state: 'unavailable', why: expect.stringContaining('exit 3') });
      await new Promise((resolve) => setImmediate(resolve));
      expect(sandboxLogs(logs)).toEqual([expect.stringContaining('the sandbox helper ended (exit 3)')]);
    } finally {
      await harness.close();
    }
  });
});
