/**
 * `${VAR}` and `${VAR:-default}` in a server's command, args, env, url and headers, as in Claude
 * Code's `.mcp.json`, so a config can name a secret without holding it. An unset variable without
 * a default becomes empty and is reported.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

export function expandRecord(record: Record<string, string> | undefined, env: NodeJS.ProcessEnv, missing: Set<string>): Record<string, string> | undefined {
  if (!record) return undefined;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expandVariables(value, env, missing)]));
}
