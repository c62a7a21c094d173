import { isIP } from 'node:net';
import { addressKind, type AddressKind } from './addressRanges';

/**
 * A host as Keel compares it: the URL parser's form (lower case, IDNA, IPv4 in dotted decimal
 * whatever way it was written: 2130706433, 0177.0.0.1 and 0x7f.1 are all 127.0.0.1), no trailing
 * dot, no IPv6 brackets. Null when it is not a host.
 */
export function canonicalHost(raw: string): string | null {
  let text = raw.trim();
  if (text === '') return null;
  // A bare IPv6 address has colons a URL would read as a port.
  if (isIP(text) === 6) text = `[${text}]`;
  // A port, a path or user info means the text is more than a host (a URL drops a default port silently).
  else if (!/^\[[^\]]*\]$/.test(text) && /[:/\\@?#]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(`http://${text}/`);
  } catch {
    return null;
  }
  // Anything past the host (a port, a path, user info) means the text was not just a host.
  if (url.port !== '' || url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  return hostOfUrl(url);
}

/** The host of a parsed URL in the form canonicalHost gives. */
export function hostOfUrl(url: URL): string | null {
  let host = url.hostname.replace(/\.+$/, '');
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host === '' ? null : host;
}

/** `localhost` and every name under it are this machine whatever a resolver says. */
export function nameKind(host: string): AddressKind | null {
  const literal = addressKind(host);
  if (literal !== null) return literal;
  return host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : null;
}

/** How a host is written in a URL (IPv6 in brackets). */
export function hostForUrl(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * The person's list (settings `network.allow`, KEEL_NETWORK_ALLOW: host names or addresses,
 * comma or space separated) in canonical form, and the entries that are not hosts.
 */
export function parseHostList(entries: Iterable<string>): { hosts: string[]; invalid: string[] } {
  const hosts = new Set<string>();
  const invalid: string[] = [];
  for (const entry of entries) {
    for (const part of entry.split(/[\s,]+/)) {
      if (part === '') continue;
      const host = canonicalHost(part);
      if (host === null) invalid.push(part);
      else hosts.add(host);
    }
  }
  return { hosts: [...hosts], invalid };
}
