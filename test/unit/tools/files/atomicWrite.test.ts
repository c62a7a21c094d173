import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile } from '../../../../main/tools/files/atomicWrite';
import { writeFileTool } from '../../../../main/tools/files/writeFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const TEMP_NAME = /^\.target\.txt\.\d+\.[0-9a-f]+\.keel-tmp$/;

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('atomic write', () => {
  it('leaves the old file whole and no temp file when the process is killed mid-write', async () => {
    const original = Buffer.from('the original content\n'.repeat(100));
    const target = ws.file('target.txt', original);
    const script = path.join(ws.outside, 'writer.mts');
    writeFileSync(
      script,
      [
        `import { atomicWriteFile } from ${JSON.stringify(path.join(repoRoot, 'main/tools/files/atomicWrite.ts'))};`,
        // 128 MB: the flush to disk alone keeps the temp file around long enough to be caught.
        `await atomicWriteFile(process.argv[2], Buffer.alloc(128 * 1024 * 1024, 'n'));`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, target], { cwd: repoRoot, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));

    let killedWhileWriting = false;
    const deadline = Date.now() + 20_000;
    // Polled every few milliseconds: writing and flushing 128 MB keeps the window open far longer.
    while (Date.now() < deadline && child.exitCode === null) {
      const temp = readdirSync(ws.root).find((name) => TEMP_NAME.test(name));
      if (temp && statSync(path.join(ws.root, temp), { throwIfNoEntry: false })?.size) {
        child.kill('SIGKILL');
        killedWhileWriting = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(killedWhileWriting, 'the writer finished before it could be killed').toBe(true);
    expect(await exited).toBe('SIGKILL');

    expect(readFileSync(target)).toEqual(original);
    // A killed process cannot clean up; its temp file stays hidden beside the target...
    expect(readdirSync(ws.root).filter((name) => TEMP_NAME.test(name))).toHaveLength(1);
    // ...until the next write to that file, which removes what dead writers left.
    const result = await writeFileTool.run({ path: 'target.txt', content: 'after\n' }, ws.context);
    expect(result.isError).toBe(false);
    expect(readdirSync(ws.root)).toEqual(['target.txt']);
    expect(readFileSync(target, 'utf8')).toBe('after\n');
  });

  it('removes its temp file and leaves the target intact when the rename fails', async () => {
    // A non-empty folder cannot be replaced by a file: the rename fails after the data is written.
    mkdirSync(path.join(ws.root, 'target.txt'));
    ws.file('target.txt/keep.txt', 'kept');
    await expect(atomicWriteFile(path.join(ws.root, 'target.txt'), Buffer.alloc(3 * 1024 * 1024, 'x'))).rejects.toThrow();
    expect(readdirSync(ws.root)).toEqual(['target.txt']);
    expect(readFileSync(path.join(ws.root, 'target.txt/keep.txt'), 'utf8')).toBe('kept');
  });

  it('stops on cancel, leaving the old file whole and no temp file', async () => {
    const target = ws.file('target.txt', 'old');
    const controller = new AbortController();
    controller.abort();
    const result = await writeFileTool.run({ path: 'target.txt', content: 'new' }, { ...ws.context, signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Stopped: the task was cancelled/);
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(ws.root)).toEqual(['target.txt']);
  });

  it('does not remove the temp file of a writer that is still running', async () => {
    const target = ws.file('target.txt', 'old');
    // Named for this (running) process, as a concurrent write would be.
    const live = path.join(ws.root, `.target.txt.${process.pid}.abcdef.keel-tmp`);
    writeFileSync(live, 'in progress');
    await atomicWriteFile(target, Buffer.from('new'));
    expect(readdirSync(ws.root).sort()).toEqual(['.target.txt.' + process.pid + '.abcdef.keel-tmp', 'target.txt']);
  });
});
