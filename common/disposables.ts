/** Undoes what returned it: a subscription, a timer, a child process. Calling it again does nothing more. */
export type Disposable = () => void;

/** Calls a disposable; what it throws is reported, never raised, so the ones after it still run. */
export function disposeQuietly(dispose: Disposable, report: (error: unknown) => void = reportError): void {
  try {
    dispose();
  } catch (error) {
    report(error);
  }
}

/**
 * Holds what an owner must undo when it goes away. Disposing undoes all of them, newest first,
 * each even when one before it throws; what is added after that is undone at once.
 */
export class DisposableStore {
  private readonly held: Disposable[] = [];
  private disposed = false;

  constructor(private readonly report: (error: unknown) => void = reportError) {}

  get isDisposed(): boolean {
    return this.disposed;
  }

  add(dispose: Disposable): Disposable {
    if (this.disposed) disposeQuietly(dispose, this.report);
    else this.held.push(dispose);
    return dispose;
  }

  dispose(): void {
    this.disposed = true;
    while (this.held.length > 0) disposeQuietly(this.held.pop()!, this.report);
  }
}

/** Where a failure with no caller to raise it to goes by default. */
export function reportError(error: unknown): void {
  console.error('Keel: a listener or disposer failed:', error);
}
