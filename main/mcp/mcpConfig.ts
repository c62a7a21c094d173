import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpHttpServerSchema, McpServerConfigSchema, McpServerNameSchema, McpStdioServerSchema, type McpServerConfig } from '../../common/mcp';

export const PROJECT_MCP_FILE = '.mcp.json';

export interface ParsedServers {
  servers: Map<string, McpServerConfig>;
  /** Each names the file and the key: `~/.keel/settings.json: mcpServers.db.command: …`. */
  errors: string[];
}

/**
 * Checks every server of an `mcpServers` object on its own: one bad entry is reported and
 * skipped, the others still start.
 */
export function parseServers(raw: unknown, file: string): ParsedServers {
  const servers = new Map<string, McpServerConfig>();
  const errors: string[] = [];
  if (raw === undefined) return { servers, errors };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(`${file}: mcpServers must be an object of servers by name, like {"mcpServers": {"name": {"command": "…"}}}.`);
    return { servers, errors };
  }
  for (const [name, value] of Object.entries(raw)) {
    if (!McpServerNameSchema.safeParse(name).success) {
      errors.push(`${file}: mcpServers.${JSON.stringify(name)}: a server needs a name of 1 to 100 characters.`);
      continue;
    }
    const parsed = McpServerConfigSchema.safeParse(value);
    if (parsed.success) servers.set(name, parsed.data);
    else errors.push(`${file}: mcpServers.${name}: ${describeConfigIssue(value)}`);
  }
  return { servers, errors };
}

function describeConfigIssue(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'a server must be an object with "command" (stdio) or "type" and "url" (http).';
  const type = (value as { type?: unknown }).type;
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'sse'].includes(type as string)) {
    return `unknown "type" ${JSON.stringify(type)}: use "stdio" (with "command"), "http" or "sse" (with "url").`;
  }
  // The union's issues mix both shapes: check the one the entry meant, and report its first issue.
  const meantHttp = (type !== undefined && type !== 'stdio') || 'url' in value;
  const parsed = (meantHttp ? McpHttpServerSchema : McpStdioServerSchema).safeParse(value);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  if (!issue) return 'give the "command" to run (and "args"), or "type": "http" with a "url".';
  return `${issue.path.map(String).join('.') || 'entry'}: ${issue.message}.`;
}

export interface ProjectServers extends ParsedServers {
  /** The file's path, or null when the folder has none. */
  file: string | null;
  /** sha256 of the file's bytes: trust is given to this content, so a changed file asks again. */
  hash: string | null;
}

/** Reads `<workspace>/.mcp.json`; a missing file is no servers, a broken one an error naming it. */
export function readProjectServers(workspace: string): ProjectServers {
  const file = join(workspace, PROJECT_MCP_FILE);
  if (!existsSync(file)) return { file: null, hash: null, servers: new Map(), errors: [] };
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { file, hash: null, servers: new Map(), errors: [`${file}: could not be read (${(error as Error).message}).`] };
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { file, hash, servers: new Map(), errors: [`${file}: is not valid JSON (${(error as Error).message}). Fix it to use its MCP servers.`] };
  }
  if (typeof raw !== 'object' || raw === null || !('mcpServers' in raw)) {
    return { file, hash, servers: new Map(), errors: [`${file}: has no "mcpServers" object.`] };
  }
  return { file, hash, ...parseServers((raw as { mcpServers: unknown }).mcpServers, file) };
}

/** The command line or URL, for a person to recognise the server. */
export function serverTarget(config: McpServerConfig): string {
  if ('url' in config) return config.url;
  return [config.command, ...(config.args ?? [])].map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ');
}

export function serverTransport(config: McpServerConfig): 'stdio' | 'http' | 'sse' {
  if (!('url' in config)) return 'stdio';
  return config.type === 'sse' ? 'sse' : 'http';
}
