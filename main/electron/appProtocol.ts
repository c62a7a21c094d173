// fs.promises looked up at call time: Electron patches its methods to read inside app.asar.
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { extname, isAbsolute, relative, sep } from 'node:path';
import { contentSecurityPolicy } from '../../common/csp';

/**
 * The window's own pages, served from the built renderer folder under `keel://app/`.
 *
 * Why not file://: the package turns the grantFileProtocolExtraPrivileges fuse off, and then a
 * file:// page is an opaque origin that may not load Vite's `crossorigin` module script and
 * stylesheet (a blank window). A standard, secure scheme gives the page a real origin of its own,
 * so those loads are same-origin. The scheme is deliberately not corsEnabled: nothing of another
 * origin may read it.
 *
 * This file must not import electron: the handler is a plain Fetch function, tested in Node and
 * used by the Chromium e2e test, and main/index.ts hands it to `protocol.handle`.
 */
export const APP_SCHEME = 'keel';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** What `protocol.registerSchemesAsPrivileged` is given, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true } as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** The window talks to main over IPC, so its page may connect to nothing but itself. */
export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': contentSecurityPolicy({ connect: [] }),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export type AppProtocolHandler = (request: Request) => Promise<Response>;

/** True for a URL of the window's own origin (keel://app); Node gives such URLs the origin 'null'. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/**
 * `keel://app/<path>` → the file `<path>` of `rendererDir`, and nothing outside it: traversal
 * (plain or percent-encoded), backslashes, absolute or drive paths, NUL, directories and symlinks
 * that lead out are refused. Only GET and HEAD.
 */
export function createAppProtocolHandler(rendererDir: string): AppProtocolHandler {
  let rootReal: Promise<string> | null = null;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed: only GET and HEAD.', { allow: 'GET, HEAD' });
    if (!isAppUrl(request.url)) return plain(404, 'Not found: only keel://app/ is served.');
    rootReal ??= fs.realpath(rendererDir);
    let root: string;
    try {
      root = await rootReal;
    } catch {
      rootReal = null;
      return plain(404, 'Not found: the app is not built.');
    }
    const requested = requestedFile(request.url, root);
    if (!requested) return plain(400, 'Bad request: the path is not a plain file path inside the app.');
    let file: string;
    try {
      file = await fs.realpath(requested);
      if (!(await fs.stat(file)).isFile()) return plain(404, 'Not found.');
    } catch {
      return plain(404, 'Not found.');
    }
    // Resolved for real: a symlink inside the folder may still point out of it.
    const inside = relative(root, file);
    if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return plain(404, 'Not found.');
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers = { ...APP_SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-cache' };
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    try {
      return new Response(new Uint8Array(await fs.readFile(file)), { status: 200, headers });
    } catch {
      return plain(404, 'Not found.'); // removed or unreadable since it was found
    }
  };
}

/**
 * The file below `root` a keel://app URL names, before symlinks are resolved, or null when the
 * path could name anything else. `paths` is the platform's path module (path.win32 in tests).
 */
export function requestedFile(url: string, root: string, paths: Pick<typeof nodePath, 'join'> = nodePath): string | null {
  const segments = pathSegments(url);
  return segments ? paths.join(root, ...segments) : null;
}

/** Windows opens a device, not a file, for these names, whatever the folder or extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)(\..*)?$/i;

/**
 * The path's segments, decoded, or null when any of them could name something other than a file
 * below the root. The URL parser already folds `..` and `%2e%2e`; this does not rely on it.
 */
function pathSegments(url: string): string[] | null {
  const raw = url.replace(/^[a-z]+:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  if (raw === '' || raw === '/') return ['index.html'];
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  // An encoded separator or dot is never part of one of our file names.
  if (/%(2e|2f|5c|00)/i.test(raw)) return null;
  const segments: string[] = [];
  for (const encoded of raw.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..') return null;
    // NUL, separators, and ':' (a Windows drive or stream) have no place in a name.
    if (/[\0/\\:]/.test(segment) || DEVICE_NAME.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

function plain(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...APP_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra } });
}
