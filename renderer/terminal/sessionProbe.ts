import type { TerminalSession } from './session';

interface OutputWatcher {
  needle: string;
  tail: string;
  resolve(at: number): void;
}

/**
 * What the browser tests and the bench watch of one tab: what xterm.js has parsed and when the
 * last keystroke left. Part of the test hook, so it is in test builds only; it wraps the tab's
 * xterm.js from outside instead of the tab keeping counters a person's window never reads.
 */
export class SessionProbe {
  /** Characters (bytes, for the pty's output) xterm.js has parsed. */
  renderedChars = 0;
  /** performance.now() of the last keystroke or paste the tab sent. */
  lastInputAt = 0;
  private readonly watchers = new Set<OutputWatcher>();
  private readonly decoder = new TextDecoder();

  constructor(session: TerminalSession) {
    const term = session.term;
    const write = term.write.bind(term);
    term.write = (data, callback) =>
      write(data, () => {
        this.parsed(data);
        callback?.();
      });
    term.onData(() => (this.lastInputAt = performance.now()));
  }

  /** Resolves with performance.now() when output containing `needle` has been parsed. */
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

  private parsed(data: string | Uint8Array): void {
    this.renderedChars += data.length;
    if (this.watchers.size === 0) return;
    const decoded = typeof data === 'string' ? data : this.decoder.decode(data, { stream: true });
    for (const watcher of this.watchers) {
      const text = watcher.tail + decoded;
      if (text.includes(watcher.needle)) watcher.resolve(performance.now());
      else watcher.tail = text.slice(-watcher.needle.length);
    }
  }
}
