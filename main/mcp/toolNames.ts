import { createHash } from 'node:crypto';

/**
 * Tool names the model sees: `mcp__<server>__<tool>`. The Messages API accepts
 * ^[a-zA-Z0-9_-]{1,128}$; Keel keeps to 64, the limit of other Anthropic-compatible endpoints
 * and of the clients whose configs people bring. Names that do not fit are cut and given a short
 * hash of the original, so two long names never collide.
 */
export const MAX_TOOL_NAME = 64;
const MAX_SERVER_SEGMENT = 24;
const PREFIX = 'mcp__';

function clean(name: string): string {
  // `__` separates server from tool, so a server's own name never contains it.
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/_{2,}/g, '_') || '_';
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

function fit(cleaned: string, original: string, max: number): string {
  return cleaned.length <= max ? cleaned : `${cleaned.slice(0, max - 7)}_${shortHash(original)}`;
}

/** The server's part of its tools' names; also the `mcp:<segment>` approval rule. */
export function serverSegment(server: string): string {
  return fit(clean(server), server, MAX_SERVER_SEGMENT);
}

/**
 * A segment for `server` that none of `taken` has ("my.db" and "my_db" both clean to "my_db"):
 * the later one gets a hash of its own name.
 */
export function uniqueServerSegment(server: string, taken: ReadonlySet<string>): string {
  const segment = serverSegment(server);
  return taken.has(segment) ? `${segment.slice(0, MAX_SERVER_SEGMENT - 7)}-${shortHash(server)}` : segment;
}

export function mcpToolName(server: string, tool: string, segment = serverSegment(server)): string {
  const head = `${PREFIX}${segment}__`;
  return head + fit(tool.replace(/[^a-zA-Z0-9_-]/g, '_') || '_', tool, MAX_TOOL_NAME - head.length);
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith(PREFIX) && name.indexOf('__', PREFIX.length) > PREFIX.length;
}

/** A name two tools of one server would share after cleaning ("a.b", "a_b"): made unique by the original's hash. */
export function uniqueToolName(name: string, tool: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 7)}_${shortHash(tool)}`;
}

/** `mcp__db__query` → `db`. */
export function serverSegmentOf(name: string): string {
  return name.slice(PREFIX.length, name.indexOf('__', PREFIX.length));
}
