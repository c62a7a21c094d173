import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META_CSP, contentSecurityPolicy } from '../../../common/csp';
import {
  APP_ENTRY_URL,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  isAppUrl,
  requestedFile,
  type AppProtocolHandler,
} from '../../../main/electron/appProtocol';

// The keel://app handler, in Node: a real folder laid out like out/renderer, with a secret beside it.
let base: string;
let handle: AppProtocolHandler;
const SECRET = 'the-secret-next-to-the-app';

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'keel-app-protocol-'));
  const renderer = join(base, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Keel</title><script type="module" crossorigin src="./assets/index.js"></script>');
  writeFileSync(join(renderer, 'assets', 'index.js'), 'console.log("keel")');
  writeFileSync(join(renderer, 'assets', 'index.css'), 'body{}');
  writeFileSync(join(renderer, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  writeFileSync(join(renderer, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(renderer, 'assets', 'module.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  writeFileSync(join(renderer, 'assets', 'data.json'), '{}');
  writeFileSync(join(renderer, '..notes.txt'), 'a name that starts with two dots');
  writeFileSync(join(base, 'secret.txt'), SECRET);
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), SECRET);
  symlinkSync(join(base, 'secret.txt'), join(renderer, 'assets', 'leak.txt'));
  symlinkSync(join(base, 'outside'), join(renderer, 'assets', 'leakdir'));
  symlinkSync(join(renderer, 'assets', 'index.js'), join(renderer, 'assets', 'alias.js'));
  handle = createAppProtocolHandler(renderer);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, init?: RequestInit) => handle(new Request(url, init));

/** A refusal: no file's content, and never the secret. */
async function expectRefused(url: string, statuses: number[] = [400, 404]) {
  const response = await get(url);
  expect(statuses, `${url} answered ${response.status}`).toContain(response.status);
  expect(await response.text()).not.toContain(SECRET);
}

describe('the keel://app protocol handler', () => {
  it('serves index.html as HTML with the CSP, nosniff and no-referrer headers', async () => {
    const response = await get(APP_ENTRY_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy({ connect: [] }));
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('<title>Keel</title>');
    expect((await get('keel://app/')).status).toBe(200);
  });

  it('serves each asset with the type a browser needs (a module script must be JavaScript)', async () => {
    const types: Record<string, string> = {
      'assets/index.js': 'text/javascript; charset=utf-8',
      'assets/index.css': 'text/css; charset=utf-8',
      'assets/font.woff2': 'font/woff2',
      'assets/icon.svg': 'image/svg+xml',
      'assets/module.wasm': 'application/wasm',
      'assets/data.json': 'application/json; charset=utf-8',
    };
    for (const [path, type] of Object.entries(types)) {
      const response = await get(`keel://app/${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    expect(await (await get('keel://app/assets/index.js')).text()).toBe('console.log("keel")');
    expect(await (await get('keel://app/assets/index.js?v=1#x')).text()).toBe('console.log("keel")');
  });

  it('answers HEAD without a body and refuses every other method', async () => {
    const head = await get('keel://app/assets/index.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await get('keel://app/index.html', { method, ...(method === 'POST' || method === 'PUT' ? { body: 'x' } : {}) });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('refuses ../ and percent-encoded traversal', async () => {
    for (const url of [
      'keel://app/../secret.txt',
      'keel://app/assets/../../secret.txt',
      'keel://app/%2e%2e/secret.txt',
      'keel://app/.%2E/secret.txt',
      'keel://app/%2E%2E%2Fsecret.txt',
      'keel://app/assets%2f..%2f..%2fsecret.txt',
      'keel://app/..%5csecret.txt',
      'keel://app/%252e%252e/secret.txt',
      'keel://app/..%c0%afsecret.txt',
    ]) {
      await expectRefused(url);
    }
  });

  it('refuses backslashes, absolute and drive paths, NUL and bad escapes with 400', async () => {
    for (const url of [
      `keel://app/${encodeURI(join(base, 'secret.txt'))}`,
      'keel://app//etc/passwd',
      'keel://app/..\\secret.txt',
      'keel://app/assets\\index.js',
      'keel://app/C:/Windows/win.ini',
      'keel://app/C%3A%5CWindows%5Cwin.ini',
      'keel://app/index.html%00.js',
      'keel://app/%E0%A4%A',
    ]) {
      await expectRefused(url, [400]);
    }
  });

  it('refuses a symlink that leads out of the folder, and follows one that stays inside', async () => {
    await expectRefused('keel://app/assets/leak.txt', [404]);
    await expectRefused('keel://app/assets/leakdir/secret.txt', [404]);
    // A name that merely starts with two dots is a file inside, not a way out.
    expect(await (await get('keel://app/..notes.txt')).text()).toBe('a name that starts with two dots');
    const alias = await get('keel://app/assets/alias.js');
    expect(alias.status).toBe(200);
    expect(await alias.text()).toBe('console.log("keel")');
  });

  it('answers 404 for missing files, directories (no listing) and other hosts or schemes', async () => {
    await expectRefused('keel://app/missing.js', [404]);
    await expectRefused('keel://app/assets', [404]);
    await expectRefused('keel://app/assets/', [400, 404]);
    await expectRefused('keel://evil/index.html', [404]);
    await expectRefused('https://app/index.html', [404]);
    const missing = await get('keel://app/missing.js');
    expect(missing.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers 404, not an exception, when the renderer is not built', async () => {
    const response = await createAppProtocolHandler(join(base, 'not-built'))(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('not built');
  });

  it('knows its own origin for the navigation guard', () => {
    expect(isAppUrl('keel://app/index.html')).toBe(true);
    expect(isAppUrl('keel://app/')).toBe(true);
    for (const url of ['keel://evil/index.html', 'https://app/index.html', 'file:///index.html', 'keel://app.evil/', 'not a url'])
      expect(isAppUrl(url), url).toBe(false);
  });
});

describe('the file a keel://app URL names, on each platform', () => {
  it('joins plain segments below the root with the platform separator', () => {
    expect(requestedFile('keel://app/assets/index-Bb_MqFRx.js', 'C:\\Program Files\\Keel\\resources\\app.asar\\out\\renderer', win32)).toBe(
      'C:\\Program Files\\Keel\\resources\\app.asar\\out\\renderer\\assets\\index-Bb_MqFRx.js',
    );
    expect(requestedFile('keel://app/', '/opt/Keel/resources/app.asar/out/renderer', posix)).toBe('/opt/Keel/resources/app.asar/out/renderer/index.html');
    expect(requestedFile('keel://app/%E4%B8%AD.svg', '/r', posix)).toBe('/r/中.svg');
  });

  it('names nothing for Windows drives, streams, UNC and device names, or separators of either kind', () => {
    for (const url of [
      'keel://app/C:/Windows/win.ini',
      'keel://app/c%3a%5cwindows%5cwin.ini',
      'keel://app/index.html:stream',
      'keel://app//server/share/file',
      'keel://app/assets\\..\\..\\x',
      'keel://app/NUL',
      'keel://app/con.txt',
      'keel://app/assets/COM1.js',
      'keel://app/LPT9',
      'keel://app/a%2Fb',
      'keel://app/a%5Cb',
    ]) {
      expect(requestedFile(url, 'C:\\Keel\\renderer', win32), url).toBeNull();
      expect(requestedFile(url, '/keel/renderer', posix), url).toBeNull();
    }
  });
});

describe('the window', () => {
  it('loads keel://app/index.html, and nothing in main loads a file:// page any more', () => {
    const window = readFileSync(new URL('../../../main/electron/window.ts', import.meta.url), 'utf8');
    const index = readFileSync(new URL('../../../main/index.ts', import.meta.url), 'utf8');
    expect(window).toContain('loadURL(APP_ENTRY_URL)');
    expect(APP_ENTRY_URL).toBe('keel://app/index.html');
    // Standard and secure: a real origin of its own, so the crossorigin module script is same-origin.
    // Not corsEnabled: that would let any other origin read the app's files.
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true });
    for (const source of [window, index]) {
      expect(source).not.toMatch(/loadFile\(/);
      expect(source).not.toMatch(/['"`]file:\/\//);
    }
    expect(index).toMatch(/registerSchemesAsPrivileged\(\[\{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES \}\]\)/);
    expect(index).toContain('protocol.handle(APP_SCHEME, createAppProtocolHandler(');
  });
});

describe('the one CSP', () => {
  it('is what renderer/index.html says in its meta tag', () => {
    const html = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(META_CSP);
  });
});
