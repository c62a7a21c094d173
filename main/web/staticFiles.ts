import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/** Serves a file of the built renderer; nothing outside `root` can be named. */
export function serveStatic(root: string, urlPath: string, res: ServerResponse, headers: Record<string, string>): void {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    res.writeHead(400).end('Bad path');
    return;
  }
  const file = normalize(join(root, relative));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': type.startsWith('text/html') ? 'no-store' : 'max-age=3600' });
  // The file can vanish or become unreadable between the check and the read: end this answer only.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
