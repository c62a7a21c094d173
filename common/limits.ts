/* The contract's size limits, kept apart from the zod schemas so the window can check them without bundling zod. */

/**
 * What one request may carry, in characters (UTF-16 code units, as `string.length` counts). The
 * window checks these before it sends, main validates them (IPC and WebSocket alike), and the
 * WebSocket's frame limit is set well above the largest valid request.
 */
export const LIMITS = {
  /** A chat message; a longer paste goes into the workspace as a file (`paste.save`). */
  messageChars: 100_000,
  /** One `terminal.input` call; the window splits a longer paste into chunks of this size. */
  terminalInputChars: 64_000,
  /** A pasted text saved as a workspace file. */
  pasteFileChars: 8_000_000,
  /** Items in a proposed plan edit, and characters in one of its fields (the validator's own rules are stricter). */
  planEditItems: 100,
  planEditFieldChars: 10_000,
  /** Shells open at once in one window. */
  terminals: 20,
} as const;

/**
 * The largest WebSocket frame the host accepts: a JSON-encoded string can take up to 6 bytes per
 * character (`\u001b`), so this is the largest request's worst case plus room for the envelope.
 */
export const MAX_WIRE_BYTES = 6 * LIMITS.pasteFileChars + 1024 * 1024;
