import { ErrorCodes } from '../../common/contract';
import { McpServerConfigSchema } from '../../common/mcp';
import { fail, ok, type Result } from '../../common/result';
import { readSettingsFile, settingsPath, writeSettingsFile } from './modelSettings';

/** The user's MCP servers in settings.json, edited one at a time from the window. */

export function saveMcpServer(dataDir: string, name: string, config: unknown, previousName?: string): Result<{ saved: string }> {
  const parsed = McpServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      ErrorCodes.badRequest,
      `The server "${name}" is not valid: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'unknown problem'}. Give "command" (and "args", "env"), or "type": "http" with a "url".`,
    );
  }
  const file = readSettingsFile(dataDir);
  const servers = { ...(file.mcpServers ?? {}) };
  if (previousName !== undefined && previousName !== name) delete servers[previousName];
  else if (previousName === undefined && Object.hasOwn(servers, name)) {
    return fail(ErrorCodes.badRequest, `There is already a server named "${name}" in ${settingsPath(dataDir)}. Choose another name, or edit that one.`);
  }
  // Kept as the person wrote it (a client's extra keys too), in the common format.
  servers[name] = config;
  writeSettingsFile(dataDir, { ...file, mcpServers: servers });
  return ok({ saved: name });
}

export function removeMcpServer(dataDir: string, name: string): boolean {
  const file = readSettingsFile(dataDir);
  if (!file.mcpServers || !Object.hasOwn(file.mcpServers, name)) return false;
  const { [name]: _removed, ...rest } = file.mcpServers;
  writeSettingsFile(dataDir, { ...file, mcpServers: rest });
  return true;
}

export function setMcpAlwaysAllowed(dataDir: string, rule: string, allowed: boolean): string[] {
  const file = readSettingsFile(dataDir);
  const rules = new Set(file.mcpAlwaysAllow ?? []);
  if (allowed) rules.add(rule);
  else rules.delete(rule);
  writeSettingsFile(dataDir, { ...file, mcpAlwaysAllow: [...rules] });
  return [...rules];
}
