import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal } from '@xterm/xterm';
import { terminalFont, terminalTheme } from './theme';

/** Lines kept above the screen in each tab. */
export const SCROLLBACK_LINES = 10_000;
/**
 * Rendered characters are acknowledged to main in steps of about this many (main pauses the pty
 * above 100,000 unacknowledged and resumes below 5,000); a smaller remainder goes out when the
 * output goes quiet.
 */
export const ACK_STEP_CHARS = 5_000;
const ACK_IDLE_MS = 20;

export type SessionKind = 'shell' | 'agent';

export interface SessionOptions {
  kind: SessionKind;
  /** Keystrokes and pastes of a shell tab (never called for the read-only agent tab). */
  onInput?: (data: string) => void;
  onResize?: (cols: number, rows: number) => void;
  /** Rendered characters, to acknowledge (shell tabs). */
  onAck?: (chars: number) => void;
}

interface OutputWatcher {
  needle: string;
  tail: string;
  resolve(at: number): void;
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
  private readonly watchers = new Set<OutputWatcher>();
  /** Characters of output xterm.js has parsed (test and bench hook). */
  renderedChars = 0;
  /** performance.now() of the last keystroke or paste sent (test and bench hook). */
  lastInputAt = 0;
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
      this.term.onData((data) => {
        this.lastInputAt = performance.now();
        options.onInput?.(data);
      });
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

  /** Output: written to xterm.js, and acknowledged once it has been parsed. */
  /** Empties the terminal, scrollback included (the Agent tab, when another session opens). */
  reset(): void {
    this.term.reset();
    if (this.options.kind === 'agent') this.term.write('\x1b[?25l');
    this.atLineStart = true;
  }

  write(data: string): void {
    if (data === '') return;
    this.atLineStart = data.endsWith('\n');
    this.term.write(data, () => this.written(data));
  }

  /** Resolves with performance.now() when output containing `needle` has been rendered. */
  waitForOutput(needle: string, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const watcher: OutputWatcher = {
        needle,
        tail: '',
        resolve: (at) => {
          clearTimeout(timer);
          this.watchers.delete(watcher);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error(`"${needle}" did not appear within ${timeoutMs} ms`));
      }, timeoutMs);
      this.watchers.add(watcher);
    });
  }

  dispose(): void {
    clearTimeout(this.ackTimer);
    this.flushAck();
    this.watchers.clear();
    this.term.dispose();
    this.host.remove();
  }

  private written(data: string): void {
    this.renderedChars += data.length;
    for (const watcher of this.watchers) {
      const text = watcher.tail + data;
      if (text.includes(watcher.needle)) watcher.resolve(performance.now());
      else watcher.tail = text.slice(-watcher.needle.length);
    }
    if (!this.options.onAck) return;
    this.unacked += data.length;
    if (this.unacked >= ACK_STEP_CHARS) this.flushAck();
    else this.ackTimer ??= setTimeout(() => this.flushAck(), ACK_IDLE_MS);
  }

  private flushAck(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.unacked === 0) return;
    const chars = this.unacked;
    this.unacked = 0;
    this.options.onAck?.(chars);
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
