import WebSocket from 'ws';
import type { RequestChannel, RequestInput, RequestOutput } from '../../../common/contract';
import type { Result } from '../../../common/result';

export interface KeelSocket {
  request<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>>;
  close(): void;
}

/**
 * A raw client of `keel web`'s socket, as another window (or the agent) would change things:
 * the page URL's token, no browser Origin.
 */
export async function connectKeelSocket(pageUrl: string): Promise<KeelSocket> {
  const page = new URL(pageUrl);
  const socket = new WebSocket(`ws://${page.host}/ws?token=${encodeURIComponent(page.searchParams.get('token') ?? '')}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const pending = new Map<number, (result: Result<unknown>) => void>();
  socket.on('message', (data, isBinary) => {
    // Terminal output arrives as binary frames (common/terminalFrames.ts), for every client.
    if (isBinary) return;
    const message = JSON.parse(String(data)) as { type: string; id?: number; result?: Result<unknown> };
    if (message.type === 'response' && message.id !== undefined) {
      pending.get(message.id)?.(message.result!);
      pending.delete(message.id);
    }
  });
  let nextId = 1;
  return {
    request(channel, input) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        socket.send(JSON.stringify({ type: 'request', id, channel, payload: input }));
      });
    },
    close: () => socket.close(),
  };
}
