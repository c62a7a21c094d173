import { useEffect, useSyncExternalStore } from 'react';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';

export type LazyState<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; module: T } | { status: 'failed'; error: unknown };

/**
 * A part of the window in a chunk of its own (a dynamic import), loaded once, when it is first
 * needed or when the window is idle after its first paint. Its state is what the places that show
 * it render: a placeholder while it loads, an error if the chunk cannot be loaded.
 */
export class LazyPart<T> {
  private state: LazyState<T> = { status: 'idle' };
  private pending: Promise<T> | undefined;
  private readonly changed = new Emitter<[]>();

  constructor(
    /** For logs: what this part is. */
    readonly name: string,
    private readonly importer: () => Promise<T>,
  ) {}

  get snapshot(): LazyState<T> {
    return this.state;
  }

  /** The module, once loaded. */
  get module(): T | undefined {
    return this.state.status === 'ready' ? this.state.module : undefined;
  }

  /** Starts the load (once; again after a failure) and resolves with the module. */
  load(): Promise<T> {
    return this.start(false);
  }

  /**
   * Loads it ahead of need, without waiting. A failure here is nobody's error yet (the server may be
   * restarting, the window going offline): the part stays idle and silent, and the load a person
   * asks for later tries again, showing its own error if that fails too.
   */
  prefetch(): void {
    this.start(true).catch(() => undefined);
  }

  private start(ahead: boolean): Promise<T> {
    if (this.pending && this.state.status !== 'failed' && this.state.status !== 'idle') return this.pending;
    this.set({ status: 'loading' });
    const pending = this.importer().then(
      (module) => {
        this.set({ status: 'ready', module });
        return module;
      },
      (error: unknown) => {
        if (this.pending === pending) this.pending = undefined;
        if (ahead) this.set({ status: 'idle' });
        else {
          console.error(`keel: the ${this.name} part could not be loaded`, error);
          this.set({ status: 'failed', error });
        }
        throw error;
      },
    );
    this.pending = pending;
    return pending;
  }

  subscribe = (listener: () => void): Disposable => this.changed.on(listener);
  getSnapshot = (): LazyState<T> => this.state;

  private set(state: LazyState<T>): void {
    this.state = state;
    this.changed.fire();
  }
}

/** The part's state, rendered; `load` starts it loading as the component mounts (else it waits to be asked). */
export function useLazyPart<T>(part: LazyPart<T>, load = true): LazyState<T> {
  const state = useSyncExternalStore(part.subscribe, part.getSnapshot);
  // Again whenever it is idle: a prefetch that failed quietly leaves it so, and this load shows its error.
  useEffect(() => {
    if (load && state.status === 'idle') part.load().catch(() => undefined);
  }, [part, load, state.status]);
  return state;
}

/** How long after the window has shown its first data the parts it does not need yet are fetched. */
export const PREFETCH_DELAY_MS = 1000;

/**
 * Runs `task` once `delayMs` have passed and the window is idle (at the latest `timeoutMs` later),
 * so that what it loads does not stand between the window and its first frame or first data.
 */
export function whenIdle(task: () => void, delayMs = PREFETCH_DELAY_MS, timeoutMs = 1000): Disposable {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(task, { timeout: timeoutMs });
    else task();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
