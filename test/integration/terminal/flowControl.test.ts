import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLOW_HIGH_WATERMARK_BYTES } from '../../../main/terminal/flowControl';
import { killProcessesWith, processesWith, uniqueMarker } from '../../unit/tools/bash/support';
import { PROMPT, TerminalHarness, isolateShellEnvironment, sleep, waitFor } from './support';

const restoreEnvironment = isolateShellEnvironment();
afterAll(restoreEnvironment);

/** One read of the pty (64 KB) can land after the high mark is crossed and before the pause. */
const ONE_READ = 65_536;

let h: TerminalHarness;
const markers: string[] = [];
beforeEach(() => {
  h = new TerminalHarness();
});
afterEach(async () => {
  await h.close();
  for (const marker of markers.splice(0)) killProcessesWith(marker);
});

/** Polls `value` until it has not changed for `quietMs`. */
async function settledValue(value: () => number, quietMs = 1000, timeoutMs = 15_000): Promise<number> {
  let last = value();
  let since = Date.now();
  return waitFor(
    () => {
      const now = value();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= quietMs ? now : undefined;
    },
    'the output to stop growing',
    timeoutMs,
    100,
  );
}

async function startFlood(id: string): Promise<string> {
  const marker = uniqueMarker();
  markers.push(marker);
  await h.waitForOutput(id, PROMPT);
  await h.type(id, `yes flood.${marker}\r`);
  return `flood.${marker}`;
}

describe('terminal: flow control', () => {
  it('pauses a flood the window does not acknowledge, without growing memory, and resumes on ack', { timeout: 60_000 }, async () => {
    const { id } = await h.create();
    h.autoAck = false;
    h.ackAll(id);
    const start = h.length(id);
    const heapBefore = process.memoryUsage().heapUsed;
    const flood = await startFlood(id);

    await waitFor(() => h.length(id) - start > FLOW_HIGH_WATERMARK_BYTES, 'the flood to pass the high watermark');
    const held = await settledValue(() => h.length(id));
    expect(held - start).toBeLessThanOrEqual(FLOW_HIGH_WATERMARK_BYTES + ONE_READ);
    // `yes` is blocked on the full pty, not dead and not being read into main's memory.
    expect(processesWith(flood)).not.toEqual([]);
    await sleep(2000);
    expect(h.length(id)).toBe(held);
    // Unpaused, `yes` fills hundreds of MB in these seconds.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);

    h.ackAll(id);
    await waitFor(() => h.length(id) > held + FLOW_HIGH_WATERMARK_BYTES / 2, 'the flood to resume after the ack');
    const heldAgain = await settledValue(() => h.length(id));
    expect(heldAgain - held).toBeLessThanOrEqual(FLOW_HIGH_WATERMARK_BYTES + ONE_READ);

    // Input is written while output is paused: Ctrl-C ends `yes` before the window reads on.
    await h.type(id, '\x03');
    await waitFor(() => processesWith(flood).length === 0, '`yes` to die of Ctrl-C while output is paused', 10_000, 250);
    h.autoAck = true;
    const from = h.output(id).length;
    h.ackAll(id);
    await h.waitForOutput(id, PROMPT, from);
  });

  it('stops a flood with Ctrl-C while the window reads and acknowledges, and the prompt returns', { timeout: 60_000 }, async () => {
    const { id } = await h.create();
    const flood = await startFlood(id);
    await waitFor(() => h.length(id) > 4 * FLOW_HIGH_WATERMARK_BYTES, 'the flood to pass several high watermarks');
    const from = h.output(id).length;
    await h.type(id, '\x03');
    await h.waitForOutput(id, `^C\n${PROMPT}`, from, 10_000);
    const after = h.output(id).length;
    await h.type(id, 'echo flood""-over\r');
    await h.waitForOutput(id, '\nflood-over\n', after);
    expect(processesWith(flood)).toEqual([]);
  });
});
