import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import type { TerminalInfo } from '../../../common/contract';
import { KeelCore, type CoreEvent } from '../../../main/api/core';
import { findOnPath } from '../../../main/platform/findOnPath';

/** What the test shells print as their prompt: plain, so its return can be recognised. */
export const PROMPT = '[keel-prompt]$ ';

/** The bash the tests use as "the person's shell", whatever the machine's SHELL. */
export const BASH = findOnPath('bash') ?? '/bin/bash';

/**
 * A home of the test's own, so the machine's rc files (a fancy prompt, a slow plugin manager)
 * do not decide what the shells print. Set for this test file's worker process only.
 */
export function isolateShellEnvironment(): () => void {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'keel-term-home-')));
  writeFileSync(join(home, '.bashrc'), `PS1='${PROMPT}'\nunset PROMPT_COMMAND\n`);
  const saved = { HOME: process.env.HOME, SHELL: process.env.SHELL };
  process.env.HOME = home;
  process.env.SHELL = BASH;
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
  };
}

/** What the harness saw: the core's events, and each batch of terminal output (bytes). */
export type HarnessEvent = CoreEvent | { channel: 'terminal.output'; payload: { id: string; seq: number; data: Uint8Array } };

/**
 * A real KeelCore with a workspace open, and the window's side of the terminal: it collects the
 * raw output per tab (decoded as xterm.js would, split characters included) and, like xterm.js
 * after parsing, acknowledges its bytes unless told not to.
 */
export class TerminalHarness {
  readonly core: KeelCore;
  readonly workspace: string;
  readonly events: HarnessEvent[] = [];
  /** Whether output is acknowledged as it arrives, as a window does. */
  autoAck = true;
  private readonly dataDir: string;
  private readonly outputs = new Map<string, string[]>();
  private readonly lengths = new Map<string, number>();
  private readonly acked = new Map<string, number>();
  private readonly decoders = new Map<string, TextDecoder>();

  constructor() {
    this.dataDir = mkdtempSync(join(tmpdir(), 'keel-term-data-'));
    this.workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-term-ws-')));
    this.core = new KeelCore({ dataDir: this.dataDir, host: 'web', version: 'test' });
    const opened = this.core.openWorkspace(this.workspace);
    if (!opened.ok) throw new Error(opened.error.message);
    this.core.onTerminalOutput((id, seq, data) => {
      this.events.push({ channel: 'terminal.output', payload: { id, seq, data } });
      const decoder = this.decoders.get(id) ?? new TextDecoder();
      this.decoders.set(id, decoder);
      const pieces = this.outputs.get(id) ?? [];
      pieces.push(decoder.decode(data, { stream: true }));
      this.outputs.set(id, pieces);
      this.lengths.set(id, (this.lengths.get(id) ?? 0) + data.length);
      if (this.autoAck) this.ackAll(id);
    });
    this.core.onEvent((event) => {
      if (event.channel === 'terminal.exit') this.events.push(event);
    });
  }

  async create(size = { cols: 80, rows: 24 }): Promise<TerminalInfo> {
    const created = await this.core.handlers['terminal.create'](size);
    if (!created.ok) throw new Error(`terminal.create failed: ${created.error.message}`);
    return created.value;
  }

  /** Types as the person does: Enter is a carriage return. */
  async type(id: string, text: string): Promise<void> {
    const sent = await this.core.handlers['terminal.input']({ id, data: text });
    if (!sent.ok) throw new Error(`terminal.input failed: ${sent.error.message}`);
  }

  /** Everything the tab printed so far. */
  output(id: string): string {
    const pieces = this.outputs.get(id) ?? [];
    if (pieces.length > 1) this.outputs.set(id, [pieces.join('')]);
    return pieces.length > 1 ? pieces.join('') : (pieces[0] ?? '');
  }

  /** Bytes received, without joining them (cheap enough to poll during a flood). */
  length(id: string): number {
    return this.lengths.get(id) ?? 0;
  }

  /** Acknowledges everything received so far, as a window that has caught up. */
  ackAll(id: string): void {
    const received = this.length(id);
    const bytes = received - (this.acked.get(id) ?? 0);
    if (bytes <= 0) return;
    this.acked.set(id, received);
    void this.core.handlers['terminal.ack']({ id, bytes });
  }

  /**
   * Waits until the tab's output from `from` (an offset in the raw output) on matches, and returns
   * that part as a reader sees it: escape sequences (bracketed paste mode, colours) and carriage
   * returns removed, so lines end in a plain `\n`.
   */
  async waitForOutput(id: string, pattern: string | RegExp, from = 0, timeoutMs = 10_000): Promise<string> {
    return waitFor(
      () => {
        const text = readable(this.output(id).slice(from));
        return (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) ? text : undefined;
      },
      `output matching ${String(pattern)}`,
      timeoutMs,
    );
  }

  async close(): Promise<void> {
    await this.core.dispose();
    rmSync(this.dataDir, { recursive: true, force: true });
    rmSync(this.workspace, { recursive: true, force: true });
  }
}

export function readable(raw: string): string {
  return stripAnsi(raw).replace(/\r/g, '');
}

/**
 * Polls until `probe` gives something other than undefined or false. A probe that runs `ps`
 * blocks the event loop, so give it a longer interval or it starves what it waits for.
 */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
