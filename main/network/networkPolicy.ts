import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ErrorCodes } from '../../common/errorCodes';
import type { Result } from '../../common/result';
import { fail, ok } from '../../common/result';
import { addressKind } from './addressRanges';
import { hostOfUrl, nameKind, parseHostList } from './hostNames';
import { refusal, type NetworkRefusal } from './refusals';

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** Where a checked URL may be reached: connect to `address`, never to a fresh lookup of `host`. */
export interface Destination {
  url: URL;
  host: string;
  address: string;
  family: 4 | 6;
}

/** The hosts allowed for this session (a session keeps them with its approval rules). */
export interface SessionHosts {
  has(host: string): boolean;
  add(host: string): void;
}

export interface NetworkPolicyOptions {
  /** The person's list: settings `network.allow` and KEEL_NETWORK_ALLOW, read at every check. */
  listed: () => Iterable<string>;
  /** Default: kept in memory, gone with the policy. */
  sessionHosts?: SessionHosts;
  /** "Allow always": keeps the host in the settings' `network.allow`. */
  persist?: (host: string) => void;
  /** Whether a public host nobody allowed may be reached without asking (Full auto). Default: no. */
  publicHostsFreely?: () => boolean;
  /** Default: the system resolver (getaddrinfo, so /etc/hosts counts). */
  resolve?: Resolver;
}

const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function memoryHosts(): SessionHosts {
  const hosts = new Set<string>();
  return { has: (host) => hosts.has(host), add: (host) => void hosts.add(host) };
}

/**
 * The one network policy for everything the agent reaches (web_fetch, and commands through the
 * sandbox). Public hosts: reached in Full auto, else once the person allowed them. Addresses on
 * this machine, link-local, private and reserved ranges: only when the person listed the host or
 * the address, in every mode; a name is resolved first and judged by every address it gives, and
 * the caller connects to the address that was checked, so a second lookup cannot swap it.
 */
export class NetworkPolicy {
  private readonly sessionHosts: SessionHosts;
  private readonly resolve: Resolver;

  constructor(private readonly options: NetworkPolicyOptions) {
    this.sessionHosts = options.sessionHosts ?? memoryHosts();
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Listed by the person (settings or environment). */
  isListed(host: string): boolean {
    return parseHostList(this.options.listed()).hosts.includes(host);
  }

  /** Listed, or allowed for this session. */
  isAllowed(host: string): boolean {
    return this.isListed(host) || this.sessionHosts.has(host);
  }

  allowForSession(host: string): void {
    this.sessionHosts.add(host);
  }

  /** Kept in the settings when they can be written; for this session in any case. */
  allowAlways(host: string): void {
    this.sessionHosts.add(host);
    this.options.persist?.(host);
  }

  /**
   * Whether `url` may be reached now, and at which address. `approved`: the person (or a rule)
   * already allowed this call's host, so a public host goes ahead whatever the mode.
   */
  async check(url: string | URL, options: { approved?: boolean } = {}): Promise<Result<Destination>> {
    const parsed = parseUrl(url);
    if (!parsed.ok) return parsed;
    const { url: target, host } = parsed.value;
    if (!options.approved && !this.isAllowed(host) && !this.options.publicHostsFreely?.()) {
      return { ok: false, error: refusal({ reason: 'not_allowed', host }) };
    }
    let addresses: ResolvedAddress[];
    const literal = isIP(host);
    if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (error) {
        return fail(ErrorCodes.networkError, `Could not resolve ${host}: ${errorName(error)}.`, { host, error: errorName(error) });
      }
      if (addresses.length === 0) return fail(ErrorCodes.networkError, `Could not resolve ${host}: no addresses.`, { host, error: 'ENODATA' });
    }
    const listed = parseHostList(this.options.listed()).hosts;
    if (listed.includes(host)) return ok({ url: target, host, ...addresses[0]! });
    // `localhost` is this machine whatever the resolver claims.
    const nameIsLocal = nameKind(host) !== null && nameKind(host) !== 'public';
    let refused: NetworkRefusal | undefined;
    for (const candidate of addresses) {
      const found = addressKind(candidate.address) ?? 'reserved';
      const kind = nameIsLocal && found === 'public' ? 'loopback' : found;
      if (kind === 'public' || listed.includes(candidate.address)) return ok({ url: target, host, ...candidate });
      refused ??= refusal({ reason: 'private_address', host, address: candidate.address, kind });
    }
    return { ok: false, error: refused! };
  }
}

/** An http(s) URL without credentials, and its canonical host. */
export function parseUrl(url: string | URL): Result<{ url: URL; host: string }> {
  const text = String(url);
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url.trim()) : new URL(url.href);
  } catch {
    return { ok: false, error: refusal({ reason: 'bad_url', url: text, problem: 'invalid' }) };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, error: refusal({ reason: 'bad_url', url: text, problem: 'scheme' }) };
  if (parsed.username !== '' || parsed.password !== '') {
    // The refusal is shown to the model and kept in the transcript: the secret stays out of it.
    const shown = new URL(parsed.href);
    shown.username = '';
    shown.password = '';
    return { ok: false, error: refusal({ reason: 'bad_url', url: shown.href, problem: 'credentials' }) };
  }
  const host = hostOfUrl(parsed);
  if (host === null) return { ok: false, error: refusal({ reason: 'bad_url', url: text, problem: 'invalid' }) };
  return ok({ url: parsed, host });
}

export function errorName(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
