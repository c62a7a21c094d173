import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type InlineConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../../electron.vite.config';

// The window's bundle is built as `npm run build` builds it (the project's own renderer config),
// into a folder of its own, and read: the browser tests' terminal hook must not be in it.

const work = mkdtempSync(join(tmpdir(), 'keel-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Names only the terminal test hook (and its probe of each tab) uses. */
const HOOK_NAMES = ['__keelTerminals', 'waitForOutput', 'renderedChars', 'lastInputAt', 'parseCeiling', 'did not appear within'];

/** The renderer's JavaScript, built in `mode`, as one text. */
async function rendererBundle(mode: 'production' | 'test'): Promise<string> {
  const renderer = (config as (env: { command: 'build'; mode: string }) => { renderer: InlineConfig }).call(undefined, { command: 'build', mode }).renderer;
  const outDir = join(work, mode);
  await build({ ...renderer, configFile: false, mode, logLevel: 'silent', build: { ...renderer.build, outDir, emptyOutDir: true } });
  const assets = join(outDir, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(assets, name), 'utf8'))
    .join('\n');
}

describe('the window’s production bundle', () => {
  it('holds none of the terminal test hook’s code; a test build holds all of it', async () => {
    const production = await rendererBundle('production');
    for (const name of HOOK_NAMES) expect(production, name).not.toContain(name);
    // The same check finds the hook where it belongs, so it cannot pass by reading the wrong files.
    const test = await rendererBundle('test');
    for (const name of HOOK_NAMES) expect(test, name).toContain(name);
  }, 240_000);
});
