/** Calls `stalled` once when `progress()` has not been called for `ms`. */
export class StallWatch {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ms: number,
    private readonly stalled: () => void,
  ) {
    this.progress();
  }

  progress(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.stalled();
    }, this.ms);
    // A watch must not keep a finished process alive.
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
