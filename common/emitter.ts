import { reportError, type Disposable } from './disposables';

export interface EmitterOptions {
  /** Told when a listener throws; the others are still called. Default: console.error. */
  onListenerError?: (error: unknown) => void;
}

/**
 * One event with its listeners. A listener that throws never stops the others or the code that
 * fired: it is reported. Each subscription is its own: the same function subscribed twice is
 * called twice, and each disposable removes only its own.
 */
export class Emitter<Args extends unknown[]> {
  private readonly listeners = new Set<{ listener: (...args: Args) => void }>();
  private readonly report: (error: unknown) => void;

  constructor(options: EmitterOptions = {}) {
    this.report = options.onListenerError ?? reportError;
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  on(listener: (...args: Args) => void): Disposable {
    const entry = { listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Calls the listeners subscribed when it starts, in order. */
  fire(...args: Args): void {
    for (const entry of [...this.listeners]) {
      // One that an earlier listener removed is not called any more.
      if (!this.listeners.has(entry)) continue;
      try {
        entry.listener(...args);
      } catch (error) {
        this.report(error);
      }
    }
  }

  /** Drops every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
