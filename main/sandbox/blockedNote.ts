/** What the sandbox refused, read from the command's own errors. */
export type Blocked = 'write' | 'network';

const WRITE_REFUSED = /Read-only file system|EROFS|Permission denied|EACCES|Operation not permitted/;
const NETWORK_REFUSED =
  /blocked by network allowlist|Couldn't connect to server|Could not resolve (host|proxy)|Connection refused|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|Network is unreachable|Temporary failure in name resolution|403 Forbidden|fetch failed/i;

/** Pure: which kinds of refusal the output shows. */
export function blockedBy(output: string): Blocked[] {
  const found: Blocked[] = [];
  if (WRITE_REFUSED.test(output)) found.push('write');
  if (NETWORK_REFUSED.test(output)) found.push('network');
  return found;
}

/**
 * The short note after a sandboxed command's own errors, so the model knows the refusal came from
 * the sandbox and that retrying the same way will not help; undefined when nothing looks refused.
 */
export function blockedNote(output: string): string | undefined {
  const found = blockedBy(output);
  if (found.length === 0) return undefined;
  const parts = found.map((kind) =>
    kind === 'write'
      ? 'writes outside the workspace and the session temp folder ($TMPDIR), and to .git/hooks, .git/config or shell start-up files, are refused'
      : 'network is refused except to hosts the network policy allows',
  );
  return `[sandbox: this command ran in Keel's sandbox, where ${parts.join('; ')}. Secrets such as ~/.ssh read as missing. It was not retried outside the sandbox; work inside these limits or ask the person.]`;
}
