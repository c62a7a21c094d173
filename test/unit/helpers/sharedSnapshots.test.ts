import { describe, expect, it } from 'vitest';
import { SharedSnapshots } from '../../../main/helpers/git/sharedSnapshots';

/** A snapshot the test finishes by hand; each one names the requests made before it began. */
function manualSnapshots() {
  const log: string[] = [];
  const finishers: (() => void)[] = [];
  let made = 0;
  const snapshots = new SharedSnapshots(() => {
    const name = `snapshot-${++made}`;
    log.push(`${name} began`);
    return new Promise<string>((resolve) => finishers.push(() => resolve(name)));
  });
  return { snapshots, log, finish: () => finishers.shift()!() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('snapshots shared by helpers that start together', () => {
  it('requests made while one is taken share the next one, which begins after them', async () => {
    const { snapshots, log, finish } = manualSnapshots();
    const first = snapshots.request();
    log.push('second asked');
    const second = snapshots.request();
    log.push('third asked');
    const third = snapshots.request();
    finish();
    expect(await first).toBe('snapshot-1');
    await tick();
    finish();
    expect(await Promise.all([second, third])).toEqual(['snapshot-2', 'snapshot-2']);
    // The shared one began after both of its requests: it holds whatever they saw in the folder.
    expect(log).toEqual(['snapshot-1 began', 'second asked', 'third asked', 'snapshot-2 began']);
    // Nothing running: the next request begins a snapshot of its own at once.
    const fourth = snapshots.request();
    expect(log.at(-1)).toBe('snapshot-3 began');
    finish();
    expect(await fourth).toBe('snapshot-3');
  });

  it('a failed snapshot fails only its own requests; the next one is taken anew', async () => {
    let calls = 0;
    const snapshots = new SharedSnapshots(async () => {
      calls++;
      if (calls === 1) throw new Error('disk full');
      return `snapshot-${calls}`;
    });
    const first = snapshots.request();
    const second = snapshots.request();
    await expect(first).rejects.toThrow('disk full');
    expect(await second).toBe('snapshot-2');
  });
});
