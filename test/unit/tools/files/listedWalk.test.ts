import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkListedSync } from '../../../../main/tools/files/listedWalk';
import { walkFilesSync, type WalkResult } from '../../../../main/tools/files/walk';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.file('.gitignore', '*.log\nout/\n');
  ws.file('a/b.txt', 'x');
  ws.file('a.txt', 'x');
  ws.file('a-b.txt', 'x');
  ws.file('z/.gitignore', '!keep.log\n');
  ws.file('z/keep.log', 'x');
  ws.file('z/drop.log', 'x');
  ws.file('out/gen.txt', 'x');
  ws.file('node_modules/m/i.js', 'x');
  ws.file('.git/HEAD', 'x');
  symlinkSync(path.join(ws.root, 'a', 'b.txt'), path.join(ws.root, 'link.txt'));
  symlinkSync(path.join(ws.root, 'a'), path.join(ws.root, 'linkdir'));
});
afterEach(() => ws.cleanup());

const relatives = (files: Iterable<{ relative: string }>) => [...files].map((file) => file.relative);

describe('walkListedSync', () => {
  it('yields the listed files the walk yields, in the walk order, whatever order they are listed in', () => {
    const walked = relatives(walkFilesSync(ws.root, ws.root));
    // Folder a's files before a-b.txt and a.txt, though `a-b.txt` < `a.txt` < `a/b.txt` as plain strings.
    expect(walked).toEqual(['.gitignore', 'a/b.txt', 'a-b.txt', 'a.txt', 'link.txt', 'z/.gitignore', 'z/keep.log']);
    expect(relatives(walkListedSync(ws.root, ws.root, [...walked].reverse()))).toEqual(walked);
    expect(relatives(walkListedSync(ws.root, ws.root, [...walked].sort()))).toEqual(walked);
  });

  it('drops what the walk would not yield: ignored, skipped, through a link to a folder, absent, repeated', () => {
    const listed = ['z/drop.log', 'out/gen.txt', 'node_modules/m/i.js', '.git/HEAD', 'linkdir/b.txt', 'missing.txt', 'a', 'a.txt', 'a.txt'];
    expect(relatives(walkListedSync(ws.root, ws.root, listed))).toEqual(['a.txt']);
  });

  it('applies the rules from above a start folder, and reports an ignored start as the walk does', () => {
    const start = path.join(ws.root, 'out');
    const walkResult: WalkResult = { startIgnored: false };
    const listedResult: WalkResult = { startIgnored: false };
    const walked = relatives(walkFilesSync(ws.root, start, walkResult));
    expect(walked).toEqual(['out/gen.txt']);
    expect(relatives(walkListedSync(ws.root, start, ['gen.txt'], listedResult))).toEqual(walked);
    expect(listedResult.startIgnored).toBe(true);
    expect(relatives(walkListedSync(ws.root, path.join(ws.root, 'z'), ['keep.log', 'drop.log']))).toEqual(['z/keep.log']);
  });
});
