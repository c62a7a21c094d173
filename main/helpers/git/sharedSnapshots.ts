/**
 * Snapshots of one folder taken one at a time, shared: a request made while one is being taken
 * waits for the next, which serves every request made meanwhile. Each request still gets a
 * snapshot that began after it was made, so it holds every change made before; the helpers of one
 * answer (which start a few milliseconds apart) share one or two instead of taking one each.
 */
export class SharedSnapshots {
  private running: Promise<string> | null = null;
  private next: Promise<string> | null = null;

  constructor(private readonly take: () => Promise<string>) {}

  request(): Promise<string> {
    if (this.next) return this.next;
    if (!this.running) return this.start();
    const settled = this.running.then(
      () => undefined,
      () => undefined,
    );
    const next = settled.then(() => {
      this.next = null;
      return this.start();
    });
    this.next = next;
    return next;
  }

  private start(): Promise<string> {
    const run = this.take();
    this.running = run;
    const clear = () => {
      if (this.running === run) this.running = null;
    };
    run.then(clear, clear);
    return run;
  }
}
