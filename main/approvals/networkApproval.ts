import type { ApprovalMode } from '../../common/approvals';
import { nameKind } from '../network/hostNames';
import { parseUrl } from '../network/networkPolicy';

/** The session rule that allows one host: `network:<host>`, host in canonical form. */
export const networkRule = (host: string): string => `network:${host}`;

/** The host a network call (web_fetch `{ url }`) reaches, or null when its URL is not one Keel fetches. */
export function hostOfNetworkCall(input: unknown): string | null {
  const url = typeof input === 'object' && input !== null ? (input as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return null;
  const parsed = parseUrl(url);
  return parsed.ok ? parsed.value.host : null;
}

/**
 * Pure: whether a network call asks. Full auto reaches public hosts without asking; the other
 * modes ask for a host the person has not allowed (this session, or always, or in their list).
 * A URL the tool will refuse anyway (a bad one, an address on this machine or a private network
 * nobody listed) is not asked about: the refusal tells the model and the person how to allow it.
 */
export function networkNeedsApproval(mode: ApprovalMode, input: unknown, rules: ReadonlySet<string>): boolean {
  if (mode === 'full_auto') return false;
  const host = hostOfNetworkCall(input);
  if (host === null || rules.has(networkRule(host))) return false;
  const literal = nameKind(host);
  return literal === null || literal === 'public';
}
