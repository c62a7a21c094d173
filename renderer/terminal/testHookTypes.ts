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
   * a hidden xterm.js instance like the active tab, timed until the write callback: one string,
   * or with `chunkBytes` UTF-8 bytes in writes of that size, as the pipeline delivers them.
   * `visible`: over the terminal pane instead, drawn as it goes, each write after the last one's
   * callback (what xterm.js itself can do in this window, rendering included).
   */
  parseCeiling(lines: number, lineChars: number, chunkBytes?: number, visible?: boolean): Promise<{ ms: number; chars: number }>;
}

declare global {
  interface Window {
    __keelTerminals?: KeelTerminalsHook;
  }
}
