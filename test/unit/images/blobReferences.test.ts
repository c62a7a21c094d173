import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refsInTranscript, stillReferenced } from '../../../main/images/blobReferences';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const ref = (seed: string, ext = 'png') => `${createHash('sha256').update(seed).digest('hex')}.${ext}`;
const line = (r: string) => `${JSON.stringify({ type: 'message', message: { content: [{ type: 'image', source: { type: 'keel_blob', ref: r } }] } })}\n`;

describe('picture names in transcripts', () => {
  it('are found wherever a read of the file is cut, across every folder of the data folder', async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-refs-'));
    const sessions = join(dir, 'sessions');
    mkdirSync(join(sessions, 'folder1'), { recursive: true });
    mkdirSync(join(sessions, 'folder2'));
    const cut = ref('cut');
    // A name that straddles the 1 MiB boundary between two reads.
    const padding = 'x'.repeat(1024 * 1024 - 30 - line(cut).indexOf(cut) - '{"pad":""}\n'.length);
    const transcript = join(sessions, 'folder1', 's1.jsonl');
    writeFileSync(transcript, `{"pad":"${padding}"}\n${line(cut)}${line(ref('first', 'webp'))}`);
    writeFileSync(join(sessions, 'folder2', 's2.jsonl'), line(ref('second', 'jpg')));

    expect(await refsInTranscript(transcript)).toEqual(new Set([cut, ref('first', 'webp')]));
    const candidates = new Set([cut, ref('second', 'jpg'), ref('nowhere')]);
    expect(await stillReferenced(dir, candidates)).toEqual(new Set([cut, ref('second', 'jpg')]));
  });

  it('a data folder without sessions names none', async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-refs-'));
    expect(await stillReferenced(dir, new Set([ref('a')]))).toEqual(new Set());
  });
});
