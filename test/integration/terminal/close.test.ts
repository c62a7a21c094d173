import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killProcessesWith, processesWith, uniqueMarker } from '../../unit/tools/bash/support';
import { PROMPT, TerminalHarness, isolateShellEnvironment, waitFor } from './support';

const restoreEnvironment = isolateShellEnvironment();
afterAll(restoreEnvironment);

let h: TerminalHarness;
const markers: string[] = [];
beforeEach(() => {
  h = new TerminalHarness();
});
afterEach(async () => {
  await h.close();
  for (const marker of markers.splice(0)) killProcessesWith(marker);
});

/**
 * Starts, in the tab, every way a process outlives a naive kill of the shell: a background job,
 * a new session, immunity to hang-ups, a double-forked daemon, and a foreground command. Returns
 * the marker all of their command lines carry, once they all run.
 */
async function startProcessZoo(id: string): Promise<string> {
  const marker = uniqueMarker();
  markers.push(marker);
  await h.waitForOutput(id, PROMPT);
  await h.type(id, `sleep 300.${marker} & setsid sleep 301.${marker} & nohup sleep 302.${marker} >/dev/null 2>&1 & (setsid sleep 303.${marker} &)\r`);
  await h.type(id, `sleep 304.${marker}\r`);
  await waitFor(() => processesWith(marker).length === 5, 'the five sleeps to run', 10_000, 250);
  return marker;
}

/** Whether the tab's shell still runs (a reused pid running something else does not count). */
function shellRunning(pid: number): boolean {
  try {
    const [stat = '', command = ''] = execFileSync('ps', ['-o', 'stat=,comm=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
    return !stat.startsWith('Z') && command.includes('bash');
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}

describe('terminal: closing', () => {
  it('closing a tab kills the shell and every process it started', { timeout: 30_000 }, async () => {
    const { id, pid } = await h.create();
    const marker = await startProcessZoo(id);
    expect(await h.core.handlers['terminal.close']({ id })).toEqual({ ok: true, value: { closed: true } });
    expect(processesWith(marker)).toEqual([]);
    expect(shellRunning(pid)).toBe(false);
    expect(h.core.handlers['terminal.list']({})).toEqual({ ok: true, value: [] });
    // A closed tab says nothing more, not even an exit.
    const count = h.events.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.events.length).toBe(count);
    expect(await h.core.handlers['terminal.close']({ id })).toEqual({ ok: true, value: { closed: false } });
    const input = await h.core.handlers['terminal.input']({ id, data: 'x' });
    expect(!input.ok && input.error.message).toContain('was closed');
  });

  it("dispose() on quit kills every tab's tree, and no terminal opens after it", { timeout: 30_000 }, async () => {
    const first = await h.create();
    const second = await h.create();
    const markers = [await startProcessZoo(first.id), await startProcessZoo(second.id)];
    await h.core.dispose();
    for (const marker of markers) expect(processesWith(marker)).toEqual([]);
    for (const { pid } of [first, second]) expect(shellRunning(pid)).toBe(false);
    const refused = await h.core.handlers['terminal.create']({ cols: 80, rows: 24 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(!refused.ok && refused.error.message).toContain('shutting down');
  });
});
