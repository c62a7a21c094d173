import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface HelperFile {
  path: string;
  /** Node options the helper needs: tsx's loader when it runs from source. */
  execArgv: string[];
}

/**
 * Where the sandbox helper's code is: built, `out/main/sandboxHelper.js` next to the entry points
 * or one folder up from a shared chunk; from source (Vitest, tsx), sandboxHelper.ts run with tsx.
 */
export function locateHelperFile(here: string = import.meta.url): HelperFile {
  if (/\.ts$/.test(new URL(here).pathname)) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { path: fileURLToPath(new URL('./sandboxHelper.ts', here)), execArgv: ['--import', tsx] };
  }
  for (const candidate of ['./sandboxHelper.js', '../sandboxHelper.js']) {
    const file = fileURLToPath(new URL(candidate, here));
    if (existsSync(file)) return { path: file, execArgv: [] };
  }
  throw new Error(`The sandbox helper (sandboxHelper.js) is missing next to ${fileURLToPath(here)}. Rebuild Keel with \`npm run build\`.`);
}
