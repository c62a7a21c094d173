import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MentionIndex } from '../../../main/mentions/mentionIndex';
import { prepareRankable, rankPaths } from '../../../main/mentions/rankPaths';
import { insertMention, mentionAt, mentionsIn } from '../../../renderer/chat/mentions/mentionToken';

const PATHS = ['README.md', 'src/app.ts', 'src/cart/total.ts', 'src/cart/app-total.ts', 'test/app.test.ts', 'docs/approach.md', 'src/mapping/apple.ts'];

describe('rankPaths', () => {
  const index = prepareRankable(PATHS);

  it('puts file names that start with the query first, then paths that start with it, then contains, then fuzzy', () => {
    // Every one of these names starts with "app": shorter paths first.
    expect(rankPaths(index, 'app', 10)).toEqual(['src/app.ts', 'test/app.test.ts', 'docs/approach.md', 'src/mapping/apple.ts', 'src/cart/app-total.ts']);
    // In the name beats in a folder, even when the folder comes first in the path.
    expect(rankPaths(index, 'pp', 10).slice(-1)).toEqual(['src/cart/app-total.ts']);
    expect(rankPaths(index, 'mapp', 10)).toEqual(['src/mapping/apple.ts']);
    expect(rankPaths(index, 'src/c', 10).slice(0, 2)).toEqual(['src/cart/total.ts', 'src/cart/app-total.ts']);
    expect(rankPaths(index, 'sctot', 10)).toEqual(['src/cart/total.ts', 'src/cart/app-total.ts']);
    expect(rankPaths(index, 'APP.TS', 1)).toEqual(['src/app.ts']);
    expect(rankPaths(index, 'nothing-like-it', 10)).toEqual([]);
  });

  it('lists the shallowest paths for an empty query, and never more than the limit', () => {
    expect(rankPaths(index, '', 1)).toEqual(['README.md']);
    expect(rankPaths(index, '', 3)).toHaveLength(3);
  });
});

describe('mention tokens in the composer', () => {
  it('finds the @ being typed before the caret, but not an e-mail address or a finished word', () => {
    expect(mentionAt('look at @src/ap', 15)).toEqual({ start: 8, query: 'src/ap' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('mail ada@example.com', 20)).toBeNull();
    expect(mentionAt('@src/app.ts done', 16)).toBeNull();
  });

  it('inserts the chosen path with a space, replacing what was typed, and keeps the mentions still in the text', () => {
    expect(insertMention('see @ap and more', 7, 4, 'src/app.ts')).toEqual({ text: 'see @src/app.ts and more', caret: 16 });
    expect(mentionsIn('see @src/app.ts, then @a.ts', ['src/app.ts', 'a.ts', 'gone.ts'])).toEqual(['src/app.ts', 'a.ts']);
    expect(mentionsIn('see @src/app.tsx', ['src/app.ts'])).toEqual([]);
  });
});

describe('MentionIndex', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('answers from a walk that honours .gitignore, and a stale index picks up new files on a later query', async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'keel-mentions-')));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'out'));
    writeFileSync(join(root, '.gitignore'), 'out/\n*.log\n');
    writeFileSync(join(root, 'src', 'main.ts'), '');
    writeFileSync(join(root, 'out', 'main.js'), '');
    writeFileSync(join(root, 'debug.log'), '');
    const index = new MentionIndex(root, { maxAgeMs: 0 });
    await index.refresh();
    expect(index.query('main')).toEqual({ paths: ['src/main.ts'], ready: true });
    expect(index.query('debug').paths).toEqual([]);

    writeFileSync(join(root, 'src', 'mainframe.ts'), '');
    // maxAgeMs 0: this query is answered from the old index and starts a new walk.
    expect(index.query('mainframe').paths).toEqual([]);
    await index.refresh();
    expect(index.query('mainframe').paths).toEqual(['src/mainframe.ts']);
    index.dispose();
  });
});
