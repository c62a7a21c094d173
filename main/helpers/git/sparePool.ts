/** A worktree made ahead of time, checked out at some earlier snapshot of the folder. */
export interface SpareWorktree {
  name: string;
  root: string;
  commit: string;
}

/**
 * Ready worktrees, so that a helper does not wait for a checkout of the whole repository: taking
 * one and checking out the new snapshot in it only rewrites the files that differ. Each taken
 * spare is replaced in the background while `target` says to keep some.
 */
export class SparePool {
  private readonly ready: SpareWorktree[] = [];
  private readonly making = new Set<Promise<SpareWorktree | null>>();
  private disposed = false;
  /** The last reason a spare could not be made (for a log; the slow path still works). */
  lastError: unknown = null;

  constructor(
    private readonly make: () => Promise<SpareWorktree>,
    private readonly discard: (spare: SpareWorktree) => Promise<void>,
    private target: number,
  ) {}

  /** Starts making spares up to `count` (ready and in the making), and resolves when those are ready. */
  async fill(count = this.target): Promise<void> {
    this.target = Math.max(this.target, count);
    const started: Promise<SpareWorktree | null>[] = [...this.making];
    while (!this.disposed && this.ready.length + this.making.size < count) started.push(this.startOne());
    await Promise.all(started);
  }

  /**
   * A ready spare, or the one closest to ready (started earlier than a fresh checkout would), or
   * null when there is none. A replacement starts at once.
   */
  async take(): Promise<SpareWorktree | null> {
    let spare = this.ready.shift() ?? null;
    while (spare === null && this.making.size > 0) {
      await Promise.race(this.making);
      spare = this.ready.shift() ?? null;
    }
    if (!this.disposed && this.target > 0) void this.fill();
    return spare;
  }

  /** Stops refilling and removes every spare, those still in the making once they are made. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.making]);
    await Promise.all(this.ready.splice(0).map((spare) => this.discard(spare)));
  }

  private startOne(): Promise<SpareWorktree | null> {
    const making = this.make().then(
      async (spare) => {
        this.making.delete(making);
        if (this.disposed) {
          await this.discard(spare);
          return null;
        }
        this.ready.push(spare);
        return spare;
      },
      (error: unknown) => {
        this.making.delete(making);
        this.lastError = error;
        return null;
      },
    );
    this.making.add(making);
    return making;
  }
}
