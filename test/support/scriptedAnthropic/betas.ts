/** Beta names the real API knows (a subset: those a client of 2026 sends). Any other is refused. */
const KNOWN_BETAS = new Set([
  'interleaved-thinking-2025-05-14',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'fine-grained-tool-streaming-2025-05-14',
  'token-efficient-tools-2025-02-19',
  'prompt-caching-2024-07-31',
  'context-1m-2025-08-07',
  'web-fetch-2025-09-10',
  'code-execution-2025-08-25',
  'files-api-2025-04-14',
  'mcp-client-2025-04-04',
]);

/**
 * The API's 400 for the `anthropic-beta` header, or null: an unknown name is refused, as the
 * service does; `refuseAll` plays an Anthropic-compatible endpoint that takes no beta at all.
 */
export function checkBetas(header: string | undefined, refuseAll: boolean): string | null {
  if (header === undefined) return null;
  const names = header
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = refuseAll ? names : names.filter((name) => !KNOWN_BETAS.has(name));
  if (unknown.length === 0) return null;
  return `Unexpected value(s) \`${unknown.join('`, `')}\` for the \`anthropic-beta\` header. Please consult our documentation at docs.claude.com or try again without the header.`;
}
