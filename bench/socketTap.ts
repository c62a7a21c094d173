import type { Page } from 'playwright-core';

/** What the page's socket did, as seen from the page: when it sent and when each message came. */
export interface SocketTap {
  sends: number[];
  arrivals: number[];
  /** Set by a bench: called with each text message the page receives. */
  onText?: (data: string) => void;
}

/**
 * Taps the page's socket wherever it lives: in `keel web` it is in a dedicated worker (the page
 * only posts `send` messages to it and gets `message` ones back), or the page's own WebSocket
 * when the worker cannot load. The tap is `window.__keelSocketTap`.
 */
export async function tapPageSocket(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // tsx names functions with a helper the page does not have; an identity stands in.
    (globalThis as unknown as { __name?: unknown }).__name ??= (f: unknown) => f;
    const tap: { sends: number[]; arrivals: number[]; onText?: (data: string) => void } = { sends: [], arrivals: [] };
    (window as unknown as { __keelSocketTap: typeof tap }).__keelSocketTap = tap;
    const arrived = (data: unknown) => {
      tap.arrivals.push(performance.now());
      if (typeof data === 'string') tap.onText?.(data);
    };
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (event: MessageEvent<{ type?: string; data?: unknown }>) => {
          if (event.data?.type === 'message') arrived(event.data.data);
        });
      }
      override postMessage(message: unknown, ...rest: [Transferable[]] | [StructuredSerializeOptions?]) {
        if ((message as { type?: string } | null)?.type === 'send') tap.sends.push(performance.now());
        super.postMessage(message, ...(rest as [Transferable[]]));
      }
    };
    const NativeSocket = window.WebSocket;
    window.WebSocket = class extends NativeSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('message', (event) => arrived(event.data));
      }
      override send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
        tap.sends.push(performance.now());
        super.send(data);
      }
    };
  });
}
