import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noopTool, startAgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';

/** The files under `folder` this process has open (Linux: its links in /proc/self/fd). */
function openUnder(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${folder}/`) ? [target] : [];
    } catch {
      return [];
    }
  });
}

describe('the files Keel keeps open', () => {
  it.skipIf(process.platform !== 'linux')('are all closed when Keel quits, so its data folder can be deleted at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
    try {
      const harness = await startAgentHarness([reply(text('Once.'), toolUse('noop', {})), reply('Done.')], { tools: [noopTool], dataDir });
      const result = await harness.core.currentAgent!.runTask('Call noop once.');
      expect(result.outcome).toBe('done');
      // The transcript and the change index are written while the task runs.
      expect(openUnder(dataDir).length).toBeGreaterThan(0);
      await harness.close();
      expect(openUnder(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
