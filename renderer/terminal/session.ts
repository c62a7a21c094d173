import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import { joinBytes } from '../../common/joinBytes';
import { terminalFont, terminalTheme } from './theme';

/** Lines kept above the screen in each tab. */
export const SCROLLBACK_LINES = 10_000;
/**
 * Parsed output bytes are acknowledged to main in steps of about this many (main pauses the pty
 * above FLOW_HIGH_WATERMARK_BYTES unacknowledged); a smaller remainder goes out when the output
 * goes quiet. A flood's batches are larger than this, so each is acknowledged as it is parsed.
 */
export const ACK_STEP_BYTES = 64 * 1024;
const ACK_IDLE_MS = 20;
/**
 * Writes at least this large measure how fast xterm.js parses (smaller ones are mostly the
 * write's own overhead). Main sizes its flow-control window in time by that rate, so the answer
 * to a Ctrl-C waits behind a fraction of a second of output whatever its lines are like.
 */
export const PARSE_RATE_SAMPLE_BYTES = 32 * 1024;

export type SessionKind = 'shell' | 'agent';

export interface SessionOptions {
  kind: SessionKind;
  /** Keystrokes and pastes of a shell tab (never called for the read-only agent tab). */
  onInput?: (data: string) => void;
  onResize?: (cols: number, rows: number) => void;
  /** Parsed output bytes, to acknowledge (shell tabs), with the parse rate in bytes a second once measured. */
  onAck?: (bytes: number, parseRate: number | undefined) => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * One tab's xterm.js instance. It lives as long as the tab, not as long as the React view: its
 * element (`host`) is moved into whichever pane shows it, so the scrollback, and the agent's
 * commands run while the panel was collapsed, are all there when it is shown again.
 */
export class TerminalSession {
  readonly term: Terminal;
  readonly host: HTMLDivElement;
  private readonly fitAddon = new FitAddon();
  private opened = false;
  private unacked = 0;
  private ackTimer: ReturnType<typeof setTimeout> | undefined;
  private outputInFlight = false;
  private pendingOutput: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Bytes a second xterm.js parses this tab's output at, smoothed over the large writes. */
  private parseRate: number | undefined;
  /** Whether the last character written ended a line (the agent tab's own lines start on a new one). */
  atLineStart = true;

  constructor(private readonly options: SessionOptions) {
    const readOnly = options.kind === 'agent';
    this.term = new Terminal({
      scrollback: SCROLLBACK_LINES,
      allowProposedApi: true,
      fontFamily: terminalFont(),
      fontSize: 13,
      lineHeight: 1.15,
      cursorBlink: !readOnly,
      disableStdin: readOnly,
      cursorInactiveStyle: readOnly ? 'none' : 'outline',
      theme: terminalTheme(),
      macOptionIsMeta: true,
      rightClickSelectsWord: true,
    });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    this.term.loadAddon(this.fitAddon);
    this.term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener')));
    this.term.attachCustomKeyEventHandler((event) => this.keyEvent(event));
    if (readOnly) {
      // No cursor in a tab nobody types in.
      this.term.write('\x1b[?25l');
    } else {
      this.term.onData((data) => options.onInput?.(data));
    }
    this.term.onResize(({ cols, rows }) => options.onResize?.(cols, rows));
    this.host = document.createElement('div');
    this.host.className = 'terminal-host';
  }

  /** Shows the terminal in `pane` (its one child), opening xterm.js there the first time. */
  attach(pane: HTMLElement): void {
    if (this.host.parentElement !== pane) pane.replaceChildren(this.host);
    if (!this.opened) {
      this.term.open(this.host);
      this.opened = true;
    }
    this.fit();
  }

  /** Fits the grid to the pane; the shell hears of a new size through onResize. */
  fit(): void {
    if (!this.opened || !this.host.isConnected || this.host.clientWidth === 0 || this.host.clientHeight === 0) return;
    try {
      this.fitAddon.fit();
    } catch {
      // Not measurable right now (hidden); the next resize fits it.
    }
  }

  /** Columns and rows the pane would hold, when the terminal is on screen. */
  proposedSize(): { cols: number; rows: number } | undefined {
    if (!this.opened || !this.host.isConnected) return undefined;
    const size = this.fitAddon.proposeDimensions();
    return size && Number.isFinite(size.cols) && Number.isFinite(size.rows) ? { cols: Math.max(2, size.cols), rows: Math.max(1, size.rows) } : undefined;
  }

  focus(): void {
    this.term.focus();
  }

  setTheme(): void {
    this.term.options.theme = terminalTheme();
  }

  /** Empties the terminal, scrollback included (the Agent tab, when another session opens). */
  reset(): void {
    this.skipOutput(this.pendingBytes);
    this.pendingOutput = [];
    this.pendingBytes = 0;
    this.term.reset();
    if (this.options.kind === 'agent') this.term.write('\x1b[?25l');
    this.atLineStart = true;
  }

  /** Keel's own text (the agent's feed, a shell's exit line, a snapshot of the screen). */
  write(data: string): void {
    if (data === '') return;
    // After the output that arrived before it.
    this.writePending();
    this.atLineStart = data.endsWith('\n');
    this.term.write(data);
  }

  /**
   * The shell's raw output, acknowledged once parsed. xterm.js decodes the UTF-8 itself and keeps
   * a character split between two batches until the rest arrives.
   */
  writeOutput(data: Uint8Array): void {
    if (data.length === 0) return;
    this.atLineStart = data[data.length - 1] === 0x0a;
    if (this.outputInFlight) {
      this.pendingOutput.push(data);
      this.pendingBytes += data.length;
    } else this.writeToTerm(data);
  }

  /**
   * One write in xterm.js at a time; what arrives meanwhile is joined into the next. xterm.js
   * yields to the page (and renders) between writes: a page that fell behind catches up in
   * pieces as large as the flow window instead of one batch at a time.
   */
  private writeToTerm(data: Uint8Array): void {
    this.outputInFlight = true;
    const began = performance.now();
    this.term.write(data, () => {
      this.outputInFlight = false;
      this.measure(data.length, performance.now() - began);
      this.acknowledge(data.length);
      this.writePending();
    });
  }

  private measure(bytes: number, ms: number): void {
    if (bytes < PARSE_RATE_SAMPLE_BYTES || ms <= 0) return;
    const rate = (bytes / ms) * 1000;
    this.parseRate = this.parseRate === undefined ? rate : (this.parseRate + rate) / 2;
  }

  private writePending(): void {
    if (this.pendingOutput.length === 0) return;
    const joined = joinBytes(this.pendingOutput, this.pendingBytes);
    this.pendingOutput = [];
    this.pendingBytes = 0;
    this.writeToTerm(joined);
  }

  /** Output this tab received but will not write (its screen snapshot already has it). */
  skipOutput(bytes: number): void {
    this.acknowledge(bytes);
  }

  dispose(): void {
    clearTimeout(this.ackTimer);
    this.flushAck();
    this.term.dispose();
    this.host.remove();
  }

  private acknowledge(bytes: number): void {
    if (!this.options.onAck || bytes === 0) return;
    this.unacked += bytes;
    if (this.unacked >= ACK_STEP_BYTES) this.flushAck();
    else this.ackTimer ??= setTimeout(() => this.flushAck(), ACK_IDLE_MS);
  }

  private flushAck(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.unacked === 0) return;
    const bytes = this.unacked;
    this.unacked = 0;
    this.options.onAck?.(bytes, this.parseRate === undefined ? undefined : Math.round(this.parseRate));
  }

  /**
   * Copy and paste: Ctrl+Shift+C / Ctrl+Shift+V (and Cmd+C / Cmd+V on macOS). Returning false
   * keeps xterm.js from sending the key to the shell; a paste is left to the browser, whose paste
   * event xterm.js handles (bracketed paste included). Plain Ctrl+C is the shell's (^C).
   */
  private keyEvent(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown') return true;
    const key = event.key.toLowerCase();
    const copy = (isMac && event.metaKey && !event.ctrlKey && key === 'c') || (event.ctrlKey && event.shiftKey && !event.altKey && key === 'c');
    const paste = (isMac && event.metaKey && !event.ctrlKey && key === 'v') || (event.ctrlKey && event.shiftKey && !event.altKey && key === 'v');
    if (copy) {
      const selection = this.term.getSelection();
      event.preventDefault();
      if (selection) void navigator.clipboard?.writeText(selection).catch(() => undefined);
      return false;
    }
    if (paste) return false;
    return true;
  }
}
