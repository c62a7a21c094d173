import { ErrorCodes } from '../../common/errorCodes';
import type { KeelError } from '../../common/result';
import type { AddressKind } from './addressRanges';

/** Why the policy refused: a code a caller can branch on, and what it refused. */
export type NetworkRefusalDetails =
  | { reason: 'bad_url'; url: string; problem: 'invalid' | 'scheme' | 'credentials' }
  /** The host is, or resolves to, an address that is not public, and nobody listed it. */
  | { reason: 'private_address'; host: string; address: string; kind: Exclude<AddressKind, 'public'> }
  /** A public host nobody allowed, where the mode asks before reaching new hosts. */
  | { reason: 'not_allowed'; host: string };

export interface NetworkRefusal extends KeelError {
  code: typeof ErrorCodes.networkRefused;
  details: NetworkRefusalDetails;
}

const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'an address on this machine (loopback)',
  unspecified: 'an unspecified address, which reaches this machine',
  private: 'a private network address',
  link_local: 'a link-local address (where cloud metadata services answer)',
  reserved: 'a reserved, special-purpose address',
};

/** How the person allows a host for good; both lists are read at every check. */
export function howToList(host: string): string {
  return `add "${host}" to "network": { "allow": [...] } in the settings file, or to KEEL_NETWORK_ALLOW (comma-separated)`;
}

function messageFor(details: NetworkRefusalDetails): string {
  switch (details.reason) {
    case 'bad_url':
      if (details.problem === 'scheme') return `Only http:// and https:// URLs are fetched (got "${details.url}").`;
      if (details.problem === 'credentials')
        return `The URL "${details.url}" carries a user name or password; Keel does not send credentials from a URL. Fetch it without them.`;
      return `"${details.url}" is not a valid URL. Give a full URL such as https://example.com/page.`;
    case 'private_address': {
      const what = details.address === details.host ? `it is ${KIND_WORDS[details.kind]}` : `it resolves to ${details.address}, ${KIND_WORDS[details.kind]}`;
      return `Keel did not connect to ${details.host}: ${what}. Such addresses are reached only when the person lists them, in every approval mode: to allow it, ${howToList(details.host)}.`;
    }
    case 'not_allowed':
      return `${details.host} is not among the hosts allowed. In this approval mode a new host is reached only after the person allows it: a web_fetch of a URL on ${details.host} asks them (they may allow it for this session or always), or they can ${howToList(details.host)}.`;
  }
}

export function refusal(details: NetworkRefusalDetails): NetworkRefusal {
  return { code: ErrorCodes.networkRefused, message: messageFor(details), details };
}
