import { Terminal } from '@xterm/xterm';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { TerminalStore } from './terminalStore';
import { SCROLLBACK_LINES } from './session';

/**
 * What the end-to-end tests and the benchmark read of the terminals, since xterm.js draws on its
 * own and the screen's text is not the buffer's: `window.__keelTerminals`. Installed only in a
 * browser driven by automation (navigator.webdriver, as Playwright sets it), so a person's window
 * has none of it. Read-only, except for the benchmark's scratch terminal, which is its own.
 */
export interface KeelTerminalsHook {
  tabs(): Array<{ id: string; kind: string; title: string }>;
  activeId(): string;
  /** The buffer's lines (scrollback and screen), trailing blanks trimmed. */
  lines(id: string): string[];
  /** The absolute line of the last buffer line containing `needle`, or -1. */
  findLine(id: string, needle: string): number;
  /** The cell at an absolute line and column: its characters and width (2 for a wide character, 0 for the cell after one). */
  cell(id: string, line: number, column: number): { chars: string; width: number } | null;
  /** Resolves with performance.now() once output containing `needle` has been rendered. */
  waitForOutput(id: string, needle: string, timeoutMs?: number): Promise<number>;
  /** performance.now() of the last keystroke sent from the tab. */
  lastInputAt(id: string): number;
  renderedChars(id: string): number;
  size(id: string): { cols: number; rows: number } | null;
  /**
   * The benchmark's ceiling: `lines` lines of `lineChars` characters (`a`, then \r\n) written into
   * a hidden xterm.js instance like the active tab, timed until the write callback.
   */
  parseCeiling(lines: number, lineChars: number): Promise<{ ms: number; chars: number }>;
}

declare global {
  interface Window {
    __keelTerminals?: KeelTerminalsHook;
  }
}

export function installTestHook(store: TerminalStore): void {
  if (typeof navigator === 'undefined' || !navigator.webdriver) return;
  const session = (id: string) => {
    const found = store.sessions.get(id);
    if (!found) throw new Error(`no terminal ${id}`);
    return found;
  };
  window.__keelTerminals = {
    tabs: () => store.getSnapshot().tabs.map(({ id, kind, title }) => ({ id, kind, title })),
    activeId: () => store.getSnapshot().activeId,
    lines: (id) => {
      const buffer = session(id).term.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
      return lines;
    },
    findLine: (id, needle) => {
      const buffer = session(id).term.buffer.active;
      for (let i = buffer.length - 1; i >= 0; i--) if (buffer.getLine(i)?.translateToString(true).includes(needle)) return i;
      return -1;
    },
    cell: (id, line, column) => {
      const cell = session(id).term.buffer.active.getLine(line)?.getCell(column);
      return cell ? { chars: cell.getChars(), width: cell.getWidth() } : null;
    },
    waitForOutput: (id, needle, timeoutMs = 10_000) => session(id).waitForOutput(needle, timeoutMs),
    lastInputAt: (id) => session(id).lastInputAt,
    renderedChars: (id) => session(id).renderedChars,
    size: (id) => {
      const term = store.sessions.get(id)?.term;
      return term ? { cols: term.cols, rows: term.rows } : null;
    },
    parseCeiling: async (lines, lineChars) => {
      const like = store.active?.term;
      const host = document.createElement('div');
      host.style.cssText = 'position:fixed;left:0;top:0;width:900px;height:300px;opacity:0;pointer-events:none;';
      document.body.append(host);
      const term = new Terminal({ cols: like?.cols ?? 150, rows: like?.rows ?? 20, scrollback: SCROLLBACK_LINES, allowProposedApi: true, fontFamily: like?.options.fontFamily, fontSize: like?.options.fontSize });
      term.loadAddon(new Unicode11Addon());
      term.unicode.activeVersion = '11';
      term.open(host);
      const data = `${'a'.repeat(lineChars)}\r\n`.repeat(lines);
      const began = performance.now();
      await new Promise<void>((resolve) => term.write(data, resolve));
      const ms = performance.now() - began;
      term.dispose();
      host.remove();
      return { ms, chars: data.length };
    },
  };
}
