import type { WebSocketServer } from 'ws';
import { decodeTerminalFrame, encodeOutputFrame } from '../../common/terminalFrames';
import type { KeelCore } from '../api/core';

/**
 * The `keel web` side of the binary terminal path: every batch of pty output goes to every open
 * page as one binary frame (no decoding, no JSON), and a page's binary ack frames feed flow
 * control. Returns the function that stops broadcasting.
 */
export function broadcastTerminalOutput(core: KeelCore, sockets: WebSocketServer): () => void {
  return core.onTerminalOutput((id, seq, data) => {
    const frame = encodeOutputFrame(id, seq, data);
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(frame, { binary: true });
  });
}

/**
 * A binary message from page `viewer`. Ack frames go to its flow control; anything else binary is answered
 * like any malformed message (`reply` is the host's own answer for those) and changes nothing.
 */
export function receiveTerminalFrame(core: KeelCore, viewer: string, data: Buffer | ArrayBuffer | Buffer[], malformed: () => void): void {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  const frame = decodeTerminalFrame(bytes);
  if (frame?.kind !== 'ack') {
    malformed();
    return;
  }
  // An ack for a tab that is gone is expected (it raced with the exit); the answer is not needed.
  core.terminals.ack(frame.id, frame.bytes, frame.parseRate, viewer);
}
