import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locateWorkerFile } from '../../../../main/tools/search/workerFile';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'keel-worker-file-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const touch = (relative: string) => {
  const file = path.join(base, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  return pathToFileURL(file).href;
};

describe('locateWorkerFile', () => {
  it('finds the built worker next to an entry point and one folder up from a shared chunk', () => {
    const worker = touch('out/main/searchWorker.js');
    expect(locateWorkerFile(touch('out/main/cli.js'))).toEqual({ url: new URL(worker), execArgv: [] });
    expect(locateWorkerFile(touch('out/main/chunks/dispatch-abc.js'))).toEqual({ url: new URL(worker), execArgv: [] });
  });

  it('says to rebuild when the built worker is missing', () => {
    expect(() => locateWorkerFile(touch('out/main/cli.js'))).toThrow(
      /searchWorker\.js\) is missing next to .*out\/main\/cli\.js\. Rebuild Keel with `npm run build`/,
    );
  });

  it('runs the TypeScript worker through tsx from source', () => {
    const found = locateWorkerFile(pathToFileURL(path.resolve('main/tools/search/workerFile.ts')).href);
    const source = decodeURIComponent(found.url.href.slice('data:text/javascript,'.length));
    expect(source).toContain('tsx/dist/esm/api/index.mjs');
    expect(source).toContain(pathToFileURL(path.resolve('main/tools/search/worker.ts')).href);
  });
});
