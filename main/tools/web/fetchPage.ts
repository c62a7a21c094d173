import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { KeelError } from '../../../common/result';
import { ErrorCodes } from '../../../common/errorCodes';
import { errorName, parseUrl, type Destination, type NetworkPolicy } from '../../network/networkPolicy';

export const MAX_REDIRECTS = 10;
/** What is read of a body (after decompression); a longer one is cut, and the page says so. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;

export interface FetchedPage {
  /** After redirects. */
  url: URL;
  status: number;
  statusText: string;
  contentType: string | undefined;
  body: Buffer;
  /** The body went on past MAX_BODY_BYTES. */
  cut: boolean;
  redirects: URL[];
}

export type FetchOutcome =
  | { ok: true; page: FetchedPage }
  /** The policy refused a host (the first one, or one a redirect led to). */
  | { ok: false; kind: 'refused'; error: KeelError; url: string; redirects: URL[] }
  | { ok: false; kind: 'network'; url: string; error: string; redirects: URL[] };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The system's lookup is never asked: the socket goes to the address the policy checked. */
function pinnedLookup(destination: Destination): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
}

function request(destination: Destination, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = destination.url.protocol === 'https:' ? https : http;
    const req = client.request(destination.url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(destination),
      signal,
      headers: {
        'user-agent': `Keel/${__KEEL_VERSION__} (web_fetch)`,
        accept: 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

async function readBody(response: IncomingMessage, signal: AbortSignal): Promise<{ body: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = decoded(response);
  try {
    for await (const chunk of stream) {
      signal.throwIfAborted();
      const piece = chunk as Buffer;
      if (size + piece.length > MAX_BODY_BYTES) {
        chunks.push(piece.subarray(0, MAX_BODY_BYTES - size));
        return { body: Buffer.concat(chunks), cut: true };
      }
      chunks.push(piece);
      size += piece.length;
    }
  } finally {
    response.destroy();
    if (stream !== response) stream.destroy();
  }
  return { body: Buffer.concat(chunks), cut: false };
}

/**
 * One GET of `url`, following redirects, each hop checked against the policy before it is
 * reached. The first URL's host counts as approved: the approval gate asked for it before the
 * tool ran (or the mode or a rule let it through).
 */
export async function fetchPage(url: string, policy: NetworkPolicy, signal: AbortSignal): Promise<FetchOutcome> {
  const redirects: URL[] = [];
  let approvedHost: string | undefined;
  let next = url;
  for (let hop = 0; ; hop++) {
    // A hop back to the host approved for this call needs no new approval; any other host does.
    const host = parseUrl(next);
    const approved = hop === 0 || (host.ok && host.value.host === approvedHost);
    const checked = await policy.check(next, { approved });
    if (!checked.ok) {
      if (checked.error.code === ErrorCodes.networkError) return { ok: false, kind: 'network', url: next, error: checked.error.message, redirects };
      return { ok: false, kind: 'refused', error: checked.error, url: next, redirects };
    }
    const destination = checked.value;
    if (hop === 0) approvedHost = destination.host;
    let response: IncomingMessage;
    try {
      response = await request(destination, signal);
    } catch (error) {
      return { ok: false, kind: 'network', url: destination.url.href, error: describeNetworkError(error, destination, signal), redirects };
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      if (hop >= MAX_REDIRECTS) {
        return {
          ok: false,
          kind: 'network',
          url: destination.url.href,
          error: `More than ${MAX_REDIRECTS} redirects; the last went to ${location}.`,
          redirects,
        };
      }
      let target: URL;
      try {
        target = new URL(location, destination.url);
      } catch {
        return { ok: false, kind: 'network', url: destination.url.href, error: `HTTP ${status} redirected to "${location}", which is not a URL.`, redirects };
      }
      redirects.push(destination.url);
      next = target.href;
      continue;
    }
    try {
      const { body, cut } = await readBody(response, signal);
      return {
        ok: true,
        page: { url: destination.url, status, statusText: response.statusMessage ?? '', contentType: response.headers['content-type'], body, cut, redirects },
      };
    } catch (error) {
      return { ok: false, kind: 'network', url: destination.url.href, error: describeNetworkError(error, destination, signal), redirects };
    }
  }
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed',
  CERT_HAS_EXPIRED: "the site's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the site's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the site's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the site's TLS certificate is for another name",
  Z_DATA_ERROR: 'the compressed body is corrupt',
  HPE_INVALID_CONSTANT: 'the answer is not HTTP',
};

function describeNetworkError(error: unknown, destination: Destination, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    return reason?.name === 'TimeoutError' ? `No complete answer within ${FETCH_TIMEOUT_MS / 1000} s.` : 'Stopped: the task was cancelled.';
  }
  const code = errorName(error);
  const at = destination.address === destination.host ? destination.host : `${destination.host} (${destination.address})`;
  return `Could not fetch from ${at}: ${NETWORK_WORDS[code] ?? code}${NETWORK_WORDS[code] ? ` (${code})` : ''}.`;
}
