import { describe, expect, it, vi } from 'vitest';
import {
  FLOW_HIGH_WATERMARK_BYTES,
  FLOW_LOW_WATERMARK_BYTES,
  FLOW_MAX_WINDOW_BYTES,
  FLOW_MIN_WINDOW_BYTES,
  FLOW_WINDOW_MS,
  FlowControl,
  flowWindowFor,
} from '../../../main/terminal/flowControl';
import { FLOOD_BATCH_BYTES, FLOOD_BATCH_MS, OUTPUT_BATCH_MAX_BYTES, OUTPUT_BATCH_MS, OutputBatcher } from '../../../main/terminal/outputBatcher';
import { shellLaunch } from '../../../main/terminal/shellLaunch';
import { TERMINAL_MARKER_VARIABLE, terminalEnvironment } from '../../../main/terminal/terminalEnv';
import { BASH, waitFor } from './support';

// The pure parts of the terminal; the behaviour they add up to is tested on real shells beside.

describe('FlowControl', () => {
  function counted() {
    const calls: string[] = [];
    const flow = new FlowControl({ pause: () => calls.push('pause'), resume: () => calls.push('resume') });
    return { flow, calls };
  }

  it('pauses above the high watermark and resumes only below the low one', () => {
    const { flow, calls } = counted();
    flow.sent(FLOW_HIGH_WATERMARK_BYTES);
    expect(calls).toEqual([]);
    flow.sent(1);
    flow.sent(50_000);
    expect(calls).toEqual(['pause']);
    flow.acknowledged(FLOW_HIGH_WATERMARK_BYTES + 50_001 - FLOW_LOW_WATERMARK_BYTES);
    expect(flow.isPaused).toBe(true);
    flow.acknowledged(1);
    expect(calls).toEqual(['pause', 'resume']);
    expect(flow.unacknowledgedBytes).toBe(FLOW_LOW_WATERMARK_BYTES - 1);
  });

  it('counts per viewer: the one furthest behind holds the pty, and one that leaves stops counting', () => {
    const { flow, calls } = counted();
    // Sent before anyone acknowledged: the first viewer to claim the tab inherits it.
    flow.sent(1000);
    flow.acknowledged(1000, undefined, 'page-1');
    flow.acknowledged(0, undefined, 'page-2');
    flow.sent(FLOW_HIGH_WATERMARK_BYTES + 1);
    expect(calls).toEqual(['pause']);
    // page-1 catching up is not enough while page-2 is still a window behind.
    flow.acknowledged(FLOW_HIGH_WATERMARK_BYTES + 1, undefined, 'page-1');
    expect(flow.isPaused).toBe(true);
    expect(flow.unacknowledgedBytes).toBe(FLOW_HIGH_WATERMARK_BYTES + 1);
    flow.leave('page-2');
    expect(calls).toEqual(['pause', 'resume']);
    expect(flow.unacknowledgedBytes).toBe(0);
    // A reload of page-1 forgives only what page-1 had in flight.
    flow.acknowledged(0, undefined, 'page-3');
    flow.sent(FLOW_HIGH_WATERMARK_BYTES + 1);
    flow.reset('page-1');
    expect(flow.isPaused).toBe(true);
    flow.reset('page-3');
    expect(calls).toEqual(['pause', 'resume', 'pause', 'resume']);
  });

  it("is sized by the window's parse rate once it reports one: a slow parser gets less in flight, within bounds", () => {
    const { flow, calls } = counted();
    // xterm.js on a `yes`: ~3 MB/s, so 450 KB is the FLOW_WINDOW_MS (150 ms) it may be behind.
    flow.acknowledged(0, 3_000_000);
    expect(flow.highWatermark).toBe((3_000_000 * FLOW_WINDOW_MS) / 1000);
    flow.sent(flow.highWatermark + 1);
    expect(calls).toEqual(['pause']);
    // Below half of the window it reads on.
    flow.acknowledged(flow.highWatermark / 2 + 2);
    expect(calls).toEqual(['pause', 'resume']);
    // A fast parser, a stalled one, and nonsense: bounded, or ignored.
    expect(flowWindowFor(1e12)).toBe(FLOW_MAX_WINDOW_BYTES);
    expect(flowWindowFor(1)).toBe(FLOW_MIN_WINDOW_BYTES);
    flow.acknowledged(0, Number.NaN);
    flow.acknowledged(0, -5);
    expect(flow.highWatermark).toBe((3_000_000 * FLOW_WINDOW_MS) / 1000);
  });

  it('a window that grows while the pty is paused lets it read on at once', () => {
    const { flow, calls } = counted();
    flow.acknowledged(0, 1_000_000);
    flow.sent(200_000);
    expect(calls).toEqual(['pause']);
    // The page parses faster now (long lines): 200 KB in flight is below half of its new window.
    flow.acknowledged(10_000, 20_000_000);
    expect(calls).toEqual(['pause', 'resume']);
  });

  it('gives no credit for acknowledging more than was sent', () => {
    const { flow, calls } = counted();
    flow.acknowledged(1_000_000);
    flow.sent(FLOW_HIGH_WATERMARK_BYTES + 1);
    expect(calls).toEqual(['pause']);
  });
});

describe('OutputBatcher', () => {
  it('delivers the pieces of a few milliseconds as one, and flushes on demand', async () => {
    const delivered: string[] = [];
    const batcher = new OutputBatcher((data) => delivered.push(new TextDecoder().decode(data)));
    const push = (text: string) => batcher.push(new TextEncoder().encode(text));
    push('a');
    push('');
    push('b');
    expect(delivered).toEqual([]);
    await waitFor(() => delivered.length > 0, 'the batch');
    expect(delivered).toEqual(['ab']);
    push('c');
    batcher.flush();
    expect(delivered).toEqual(['ab', 'c']);
    push('dropped');
    batcher.discard();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(delivered).toEqual(['ab', 'c']);
  });

  it("gathers a flood's batches for longer, up to 1 MB, and goes back to 5 ms once the output is small", () => {
    vi.useFakeTimers();
    try {
      const sizes: number[] = [];
      const batcher = new OutputBatcher((data) => sizes.push(data.length));
      batcher.push(new Uint8Array(FLOOD_BATCH_BYTES));
      vi.advanceTimersByTime(OUTPUT_BATCH_MS);
      expect(sizes).toEqual([FLOOD_BATCH_BYTES]);
      // A flood: the next batch waits FLOOD_BATCH_MS.
      batcher.push(new Uint8Array(10));
      vi.advanceTimersByTime(OUTPUT_BATCH_MS);
      expect(sizes).toHaveLength(1);
      vi.advanceTimersByTime(FLOOD_BATCH_MS - OUTPUT_BATCH_MS);
      expect(sizes).toEqual([FLOOD_BATCH_BYTES, 10]);
      // That batch was small: the next goes out after 5 ms again.
      batcher.push(new Uint8Array(1));
      vi.advanceTimersByTime(OUTPUT_BATCH_MS);
      expect(sizes).toEqual([FLOOD_BATCH_BYTES, 10, 1]);
      // A full batch goes out at once.
      batcher.push(new Uint8Array(OUTPUT_BATCH_MAX_BYTES));
      expect(sizes).toEqual([FLOOD_BATCH_BYTES, 10, 1, OUTPUT_BATCH_MAX_BYTES]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('shellLaunch', () => {
  it('runs $SHELL when it can, else bash, else sh', () => {
    expect(shellLaunch({ SHELL: BASH }, 'linux')).toEqual({ file: BASH, args: [], title: 'bash' });
    expect(shellLaunch({ SHELL: '/nonexistent/zsh' }, 'linux').title).toMatch(/^(bash|sh)$/);
    expect(shellLaunch({ SHELL: 'bash' }, 'linux').file).toMatch(/^\//);
    expect(shellLaunch({}, 'linux').file).toMatch(/\/(bash|sh)$/);
  });

  it('starts a login shell on macOS and PowerShell on Windows', () => {
    expect(shellLaunch({ SHELL: BASH }, 'darwin').args).toEqual(['-l']);
    const windows = shellLaunch({ SHELL: BASH }, 'win32', () => undefined);
    expect(windows).toMatchObject({ file: 'powershell.exe', title: 'powershell' });
    expect(windows.args.slice(0, 3)).toEqual(['-NoLogo', '-NoExit', '-EncodedCommand']);
    // The tab's shell gets the same UTF-8 prelude as the agent's commands, then stays open.
    expect(Buffer.from(windows.args[3] ?? '', 'base64').toString('utf16le')).toContain("$PSDefaultParameterValues['Set-Content:Encoding'] = 'utf8'");
    expect(shellLaunch({}, 'win32', (p) => (p === 'pwsh.exe' ? 'C:\\pwsh\\pwsh.exe' : undefined))).toMatchObject({ file: 'C:\\pwsh\\pwsh.exe', title: 'pwsh' });
  });
});

describe('terminalEnvironment', () => {
  const base = { PATH: '/usr/bin', HOME: '/home/p', COLUMNS: '200', LINES: '50', TERM: 'dumb', ELECTRON_RUN_AS_NODE: '1' };

  it('promises a colour terminal, drops stale sizes and host variables, and marks the tab', () => {
    const env = terminalEnvironment(base, { marker: 'm1', platform: 'linux' });
    expect(env).toMatchObject({
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      TERM_PROGRAM: 'Keel',
      PATH: '/usr/bin',
      HOME: '/home/p',
      [TERMINAL_MARKER_VARIABLE]: 'm1',
    });
    expect(env).not.toHaveProperty('COLUMNS');
    expect(env).not.toHaveProperty('LINES');
    expect(env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
  });

  it('sets a UTF-8 locale only when none is set', () => {
    expect(terminalEnvironment(base, { marker: 'm', platform: 'linux' }).LANG).toBe('C.UTF-8');
    expect(terminalEnvironment(base, { marker: 'm', platform: 'darwin' }).LANG).toBe('en_US.UTF-8');
    expect(terminalEnvironment({ ...base, LANG: 'de_DE.UTF-8' }, { marker: 'm', platform: 'linux' }).LANG).toBe('de_DE.UTF-8');
    expect(terminalEnvironment({ ...base, LC_ALL: 'ja_JP.UTF-8' }, { marker: 'm', platform: 'linux' })).not.toHaveProperty('LANG');
  });

  it("uses the login shell's PATH when one was resolved, and the person's desktop name", () => {
    const env = terminalEnvironment(
      { ...base, XDG_CURRENT_DESKTOP: 'Unity', ORIGINAL_XDG_CURRENT_DESKTOP: 'GNOME' },
      { marker: 'm', path: '/opt/homebrew/bin:/usr/bin', platform: 'linux' },
    );
    expect(env.PATH).toBe('/opt/homebrew/bin:/usr/bin');
    expect(env.XDG_CURRENT_DESKTOP).toBe('GNOME');
    expect(env).not.toHaveProperty('ORIGINAL_XDG_CURRENT_DESKTOP');
  });
});
