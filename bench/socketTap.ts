import type { Page } from 'playwright-core';

/** A text frame (the JSON contract) and when the page sent or got it (performance.now()). */
export interface TappedFrame {
  at: number;
  data: string;
}

/** What the page's socket did, as seen from the page: each text frame it sent and each it got. */
export interface SocketTap {
  sends: TappedFrame[];
  arrivals: TappedFrame[];
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
    type Frame = { at: number; data: string };
    const tap: { sends: Frame[]; arrivals: Frame[]; onText?: (data: string) => void } = { sends: [], arrivals: [] };
    (window as unknown as { __keelSocketTap: typeof tap }).__keelSocketTap = tap;
    // Binary frames (terminal bytes and acks) are not noted: the benches that tap read the contract.
    const arrived = (data: unknown) => {
      if (typeof data !== 'string') return;
      tap.arrivals.push({ at: performance.now(), data });
      tap.onText?.(data);
    };
    const sent = (data: unknown) => {
      if (typeof data === 'string') tap.sends.push({ at: performance.now(), data });
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
        const posted = message as { type?: string; data?: unknown } | null;
        if (posted?.type === 'send') sent(posted.data);
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
        sent(data);
        super.send(data);
      }
    };
  });
}
