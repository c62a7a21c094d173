/*
 * Terminal output travels as bytes, not JSON: the pty's raw output in binary frames, decoded
 * (UTF-8, split characters included) by xterm.js itself. Everything else keeps the zod contract.
 *
 * A frame: one kind byte, the terminal id (a length byte and ASCII), then
 *   output (main → window): the batch's sequence number (uint32, big-endian), then the bytes;
 *   ack (window → main):     how many output bytes the window has written (uint32), then,
 *                            optionally, how fast it parses them (uint32, bytes per second;
 *                            main sizes its flow-control window by it).
 * The sequence lets a window that attaches to a running shell drop the batches its snapshot of
 * the screen already contains.
 */

export const TERMINAL_FRAME_OUTPUT = 1;
export const TERMINAL_FRAME_ACK = 2;

const MAX_ID_BYTES = 255;
const UINT32_MAX = 0xffff_ffff;

export type TerminalFrame = { kind: 'output'; id: string; seq: number; data: Uint8Array } | { kind: 'ack'; id: string; bytes: number; parseRate?: number };

export function encodeOutputFrame(id: string, seq: number, data: Uint8Array): Uint8Array {
  const frame = header(TERMINAL_FRAME_OUTPUT, id, data.length);
  new DataView(frame.buffer, frame.byteOffset).setUint32(2 + id.length, seq >>> 0);
  frame.set(data, 6 + id.length);
  return frame;
}

/** `parseRate`: bytes per second the window parses, when it has measured it. */
export function encodeAckFrame(id: string, bytes: number, parseRate?: number): Uint8Array {
  const measured = parseRate !== undefined && parseRate > 0;
  const frame = header(TERMINAL_FRAME_ACK, id, measured ? 4 : 0);
  const view = new DataView(frame.buffer, frame.byteOffset);
  view.setUint32(2 + id.length, toUint32(bytes));
  if (measured) view.setUint32(6 + id.length, toUint32(parseRate));
  return frame;
}

/** The frame in `bytes`, or null when it is not one (too short, unknown kind, id not ASCII). */
export function decodeTerminalFrame(bytes: Uint8Array): TerminalFrame | null {
  if (bytes.length < 2) return null;
  const kind = bytes[0];
  const idLength = bytes[1]!;
  const body = 2 + idLength;
  if (idLength === 0 || bytes.length < body + 4) return null;
  let id = '';
  for (let i = 2; i < body; i++) {
    const code = bytes[i]!;
    if (code < 0x21 || code > 0x7e) return null;
    id += String.fromCharCode(code);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const number = view.getUint32(body);
  if (kind === TERMINAL_FRAME_OUTPUT) return { kind: 'output', id, seq: number, data: bytes.subarray(body + 4) };
  if (kind === TERMINAL_FRAME_ACK && bytes.length === body + 4) return { kind: 'ack', id, bytes: number };
  if (kind === TERMINAL_FRAME_ACK && bytes.length === body + 8) {
    const parseRate = view.getUint32(body + 4);
    return parseRate > 0 ? { kind: 'ack', id, bytes: number, parseRate } : { kind: 'ack', id, bytes: number };
  }
  return null;
}

function toUint32(value: number): number {
  return Math.min(UINT32_MAX, Math.max(0, Math.floor(value)));
}

function header(kind: number, id: string, payload: number): Uint8Array {
  if (id.length === 0 || id.length > MAX_ID_BYTES || !/^[\x21-\x7e]+$/.test(id))
    throw new Error(`Terminal id "${id}" cannot be framed: ids are 1–255 printable ASCII characters.`);
  const frame = new Uint8Array(2 + id.length + 4 + payload);
  frame[0] = kind;
  frame[1] = id.length;
  for (let i = 0; i < id.length; i++) frame[2 + i] = id.charCodeAt(i);
  return frame;
}

/** The Electron host's two channels for the same bytes (Electron's IPC clones Uint8Arrays, no JSON). */
export const TERMINAL_OUTPUT_IPC = 'keel:terminal.bytes';
export const TERMINAL_ACK_IPC = 'keel:terminal.bytesAck';
