import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };
const define = { __KEEL_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig(({ mode }) => ({
  main: {
    define,
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // index: the Electron host. cli: `keel web` / `keel run`, which never load electron.
        // searchWorker: the search threads' code (main/tools/search/workerFile.ts finds it).
        input: {
          index: resolve(root, 'main/index.ts'),
          cli: resolve(root, 'main/cli.ts'),
          searchWorker: resolve(root, 'main/tools/search/worker.ts'),
          // sandboxHelper: one per workspace, run in it (main/sandbox/helperFile.ts finds it).
          sandboxHelper: resolve(root, 'main/sandbox/sandboxHelper.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot be an ES module, and may only require 'electron'.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    // `--mode test` (npm test, npm run bench) adds the browser tests' read-only terminal hook;
    // every other build (npm start, npm run dist, npm run web) leaves it out of the window.
    define: { ...define, __KEEL_TEST_HOOKS__: JSON.stringify(mode === 'test') },
    base: './',
    build: {
      outDir: resolve(root, 'out/renderer'),
      // The window loads this bundle on every start: minify it (electron-vite leaves it readable by default).
      minify: true,
      // The terminal, markdown, settings, changes and even the plan and chat are chunks loaded
      // later (renderer/ui/lazyPart.ts), but their styles stay in the one stylesheet, in the order
      // they always had: a stylesheet added later would win the cascade's ties over styles.css.
      cssCodeSplit: false,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
    plugins: [react(), stylesheetFirst()],
  },
}));

/**
 * The stylesheet is the one thing the first paint waits for (index.html paints the window's frame
 * before any script runs): its link goes before the scripts, so it is asked for before them
 * and modulepreloads Vite puts there, which the server would otherwise send beside it.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'keel-stylesheet-first',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        let out = html;
        for (const link of links) out = out.replace(link, '');
        // After the meta tags (the CSP governs it), before the first script.
        return out.replace(/(\s*<script)/, `${links.join('')}$1`);
      },
    },
  };
}
