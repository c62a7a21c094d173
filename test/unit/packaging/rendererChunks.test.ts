import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type InlineConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../../electron.vite.config';

// The window's bundle as `npm run build` makes it (the project's own renderer config), read back:
// what the first paint loads, and how big each chunk is.

const work = mkdtempSync(join(tmpdir(), 'keel-chunks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Strings only each library's own code holds (names of its DOM classes, options or API). */
const LIBRARIES: Record<string, string> = {
  'xterm.js': 'xterm-helper-textarea',
  'highlight.js': 'highlightAuto',
  DOMPurify: 'ALLOWED_TAGS',
  zod: '$ZodType',
};

/** The largest chunk Vite does not warn about (its default `chunkSizeWarningLimit`, 500 kB). */
const MAX_CHUNK_BYTES = 500_000;

describe('the window’s chunks', () => {
  it('the first paint loads none of the terminal, markdown or settings code, and no chunk is over 500 kB', async () => {
    const renderer = (config as (env: { command: 'build'; mode: string }) => { renderer: InlineConfig }).call(undefined, {
      command: 'build',
      mode: 'production',
    }).renderer;
    expect(renderer.build?.chunkSizeWarningLimit ?? 500, 'the warning limit is not raised to hide a big chunk').toBeLessThanOrEqual(500);
    const outDir = join(work, 'production');
    // Vitest sets NODE_ENV=test, which Vite would put in the bundle (React's development build).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ ...renderer, configFile: false, mode: 'production', logLevel: 'silent', build: { ...renderer.build, outDir, emptyOutDir: true } });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    const assets = join(outDir, 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));

    for (const name of scripts) expect(statSync(join(assets, name)).size, name).toBeLessThanOrEqual(MAX_CHUNK_BYTES);

    // index.html names the entry and what it imports statically (modulepreload): the first paint.
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const firstPaint = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(firstPaint.length).toBeGreaterThan(0);
    const firstCode = firstPaint.map((name) => readFileSync(join(assets, name), 'utf8')).join('\n');
    const lazyCode = scripts
      .filter((name) => !firstPaint.includes(name))
      .map((name) => readFileSync(join(assets, name), 'utf8'))
      .join('\n');
    for (const [library, marker] of Object.entries(LIBRARIES)) {
      expect(firstCode, `${library} is not loaded for the first paint`).not.toContain(marker);
      // The marker is right: the library is in the build, in a chunk loaded later.
      expect(lazyCode, `${library} is in a later chunk`).toContain(marker);
    }
  }, 240_000);
});
