import { describe, expect, it } from 'vitest';
import { LiveOutput } from '../../../main/agent/liveOutput';

// What the windows get live of a command's output: everything when it is modest, a bounded
// newest part and a count of the rest when it floods.

function collect(maxChars = 1000) {
  const delivered: Array<{ chunk: string; skipped: number }> = [];
  const live = new LiveOutput((chunk, skipped) => delivered.push({ chunk, skipped }), 10, maxChars);
  return { live, delivered };
}

describe('LiveOutput', () => {
  it('passes modest output through whole, in one batch per interval', async () => {
    const { live, delivered } = collect();
    live.push('line 1\n');
    live.push('');
    live.push('line 2\n');
    expect(delivered).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toEqual([{ chunk: 'line 1\nline 2\n', skipped: 0 }]);
    live.flush();
    expect(delivered).toHaveLength(1);
  });

  it('keeps the newest part of a flood, from a line start, and counts every character it leaves out', () => {
    const { live, delivered } = collect(1000);
    let pushed = '';
    for (let i = 0; i < 5000; i++) {
      const line = `line-${i}\n`;
      pushed += line;
      live.push(line);
    }
    live.push('big'.repeat(2000));
    pushed += 'big'.repeat(2000);
    live.push('\nthe end\n');
    pushed += '\nthe end\n';
    live.flush();
    expect(delivered).toHaveLength(1);
    const [{ chunk, skipped }] = delivered as [{ chunk: string; skipped: number }];
    expect(chunk.length).toBeLessThanOrEqual(1000);
    expect(chunk.endsWith('the end\n')).toBe(true);
    expect(skipped + chunk.length).toBe(pushed.length);
    expect(pushed.endsWith(chunk)).toBe(true);
  });
});
