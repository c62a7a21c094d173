import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { listFilesTool } from '../../../../main/tools/files/listFiles';
import { searchTextTool } from '../../../../main/tools/files/searchText';
import { secretPaths } from '../../../../main/sandbox/secretPaths';
import { makeWorkspace, type TempWorkspace } from './workspace';

/*
 * A workspace opened at the home folder holds the secrets the file tools never hand out
 * (~/.ssh, ~/.netrc, ...). read_file refuses them by path; a search or a listing of the whole
 * workspace must pass over them too, and over a link that leads into one.
 */
let ws: TempWorkspace;
let context: TempWorkspace['context'];
beforeEach(() => {
  ws = makeWorkspace();
  context = { ...ws.context, secrets: secretPaths({ home: ws.root, dataDir: path.join(ws.root, '.keel') }) };
  ws.file('.ssh/id_ed25519', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n');
  ws.file('.netrc', 'machine example.com password b3BlbnNzaC1rZXk\n');
  ws.file('.keel/settings.json', '{"apiKey":"b3BlbnNzaC1rZXk"}\n');
  ws.file('notes/setup.md', 'the key starts b3BlbnNzaC1rZXk\n');
  symlinkSync(path.join(ws.root, '.ssh', 'id_ed25519'), path.join(ws.root, 'notes', 'key.txt'));
});
afterEach(() => ws.cleanup());

test('search_text over the whole workspace finds nothing in a secret, nor through a link to one', async () => {
  const result = await searchTextTool.run({ pattern: 'b3BlbnNzaC1rZXk' }, context);
  expect(result.content.split('\n')).toEqual(['notes/setup.md:1: the key starts b3BlbnNzaC1rZXk']);
  // Without the list (as before), the same search printed the key.
  const unguarded = await searchTextTool.run({ pattern: 'b3BlbnNzaC1rZXk' }, ws.context);
  expect(unguarded.content).toContain('.ssh/id_ed25519:2: b3BlbnNzaC1rZXk');
});

test('list_files leaves the secrets and a link to one out of the listing', async () => {
  const result = await listFilesTool.run({ pattern: '**/*' }, context);
  expect(result.content).toContain('notes/setup.md');
  expect(result.content).not.toMatch(/\.ssh|\.netrc|\.keel|key\.txt/);
});

test('asked for by path, a secret is refused as before', async () => {
  const result = await searchTextTool.run({ pattern: 'KEY', path: '.ssh' }, context);
  expect(result.isError).toBe(true);
});
