import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface WorkerFile {
  url: URL;
  /** Node options the worker needs: a TypeScript loader when it runs from source. */
  execArgv: string[];
}

/**
 * Where the search worker's code is. Built (electron-vite), it is `out/main/searchWorker.js`, next
 * to the entry points or one folder up from a shared chunk; from source (Vitest, tsx for the
 * benchmarks) it is worker.ts beside this file, run with tsx's loader.
 */
export function locateWorkerFile(here: string = import.meta.url): WorkerFile {
  if (/\.ts$/.test(new URL(here).pathname)) {
    // A worker's execArgv cannot bring a loader in, so a two-line module registers tsx, then loads the TypeScript.
    // The ESM build of tsx's API (require.resolve would give its CommonJS twin).
    const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
    const source = `import { register } from ${JSON.stringify(tsx)};\nregister();\nawait import(${JSON.stringify(new URL('./worker.ts', here).href)});\n`;
    return { url: new URL(`data:text/javascript,${encodeURIComponent(source)}`), execArgv: [] };
  }
  for (const candidate of ['./searchWorker.js', '../searchWorker.js']) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return { url, execArgv: [] };
  }
  throw new Error(`The search worker (searchWorker.js) is missing next to ${fileURLToPath(here)}. Rebuild Keel with \`npm run build\`.`);
}
