import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInWorkspace } from '../../../../main/tools/files/confine';
import { editFileTool } from '../../../../main/tools/files/editFile';
import { listFilesTool } from '../../../../main/tools/files/listFiles';
import { readFileTool } from '../../../../main/tools/files/readFile';
import { searchTextTool } from '../../../../main/tools/files/searchText';
import { writeFileTool } from '../../../../main/tools/files/writeFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'SECRET\n');
});
afterEach(() => ws.cleanup());

function expectRefused(result: { content: string; isError: boolean }, userPath: string) {
  expect(result.isError).toBe(true);
  expect(result.content).toContain(`"${userPath}"`);
  expect(result.content).toMatch(/outside the workspace/);
  expect(result.content).toMatch(/must stay inside the workspace/);
  expect(result.content).not.toContain('SECRET');
}

describe('workspace confinement', () => {
  it('refuses ../ escapes for every tool', async () => {
    expectRefused(await readFileTool.run({ path: '../outside/secret.txt' }, ws.context), '../outside/secret.txt');
    expectRefused(await writeFileTool.run({ path: '../outside/new.txt', content: 'x' }, ws.context), '../outside/new.txt');
    expectRefused(await editFileTool.run({ path: '../outside/secret.txt', old_text: 'SECRET', new_text: 'x' }, ws.context), '../outside/secret.txt');
    expectRefused(await listFilesTool.run({ path: '..' }, ws.context), '..');
    expectRefused(await searchTextTool.run({ pattern: 'SECRET', path: '../outside' }, ws.context), '../outside');
    expect(existsSync(path.join(ws.outside, 'new.txt'))).toBe(false);
    expect(readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('SECRET\n');
  });

  it('refuses a ../ hidden in the middle of a path', async () => {
    ws.file('src/a.txt', 'a');
    expectRefused(await readFileTool.run({ path: 'src/../../outside/secret.txt' }, ws.context), 'src/../../outside/secret.txt');
  });

  it('refuses absolute paths outside the workspace, such as /etc/passwd', async () => {
    expectRefused(await readFileTool.run({ path: '/etc/passwd' }, ws.context), '/etc/passwd');
    const target = path.join(ws.outside, 'abs.txt');
    expectRefused(await writeFileTool.run({ path: target, content: 'x' }, ws.context), target);
    expect(existsSync(target)).toBe(false);
  });

  it('accepts absolute paths inside the workspace', async () => {
    ws.file('a.txt', 'hello\n');
    const result = await readFileTool.run({ path: path.join(ws.root, 'a.txt') }, ws.context);
    expect(result).toEqual({ isError: false, content: '     1\thello' });
  });

  it('refuses reading through a symlink that points outside', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    expectRefused(await readFileTool.run({ path: 'link.txt' }, ws.context), 'link.txt');
    expectRefused(await searchTextTool.run({ pattern: 'SECRET', path: 'link.txt' }, ws.context), 'link.txt');
  });

  it('refuses writing and editing through a symlink that points outside, leaving the target untouched', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    expectRefused(await writeFileTool.run({ path: 'link.txt', content: 'pwned' }, ws.context), 'link.txt');
    expectRefused(await editFileTool.run({ path: 'link.txt', old_text: 'SECRET', new_text: 'pwned' }, ws.context), 'link.txt');
    expect(readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8')).toBe('SECRET\n');
    expect(ws.context.changed).toEqual([]);
  });

  it('refuses a dangling symlink whose (missing) target is outside', async () => {
    symlinkSync(path.join(ws.outside, 'not-yet.txt'), path.join(ws.root, 'dangling.txt'));
    expectRefused(await writeFileTool.run({ path: 'dangling.txt', content: 'x' }, ws.context), 'dangling.txt');
    expect(existsSync(path.join(ws.outside, 'not-yet.txt'))).toBe(false);
  });

  it('refuses a not-yet-existing file under a symlinked folder that leads outside', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'out'));
    const userPath = 'out/deeper/new.txt';
    expectRefused(await writeFileTool.run({ path: userPath, content: 'x' }, ws.context), userPath);
    expect(existsSync(path.join(ws.outside, 'deeper'))).toBe(false);
    expectRefused(await readFileTool.run({ path: 'out/secret.txt' }, ws.context), 'out/secret.txt');
    expectRefused(await listFilesTool.run({ path: 'out' }, ws.context), 'out');
  });

  it('refuses a symlinked parent several levels up', async () => {
    mkdirSync(path.join(ws.root, 'a'));
    symlinkSync(ws.outside, path.join(ws.root, 'a', 'b'));
    expectRefused(await writeFileTool.run({ path: 'a/b/c/d/e.txt', content: 'x' }, ws.context), 'a/b/c/d/e.txt');
  });

  it('allows a path through a symlink that stays inside the workspace', async () => {
    ws.file('real/dir/a.txt', 'inside\n');
    symlinkSync(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    expect(await readFileTool.run({ path: 'alias/dir/a.txt' }, ws.context)).toEqual({ isError: false, content: '     1\tinside' });
    const written = await writeFileTool.run({ path: 'alias/dir/new/b.txt', content: 'b\n' }, ws.context);
    expect(written.isError).toBe(false);
    expect(readFileSync(path.join(ws.root, 'real/dir/new/b.txt'), 'utf8')).toBe('b\n');
    // The change is reported under the real path, which is what the Changes view tracks.
    expect(ws.context.changed).toEqual([path.join(ws.root, 'real/dir/new/b.txt')]);
  });

  it('follows a relative symlink from the folder it lives in', async () => {
    ws.file('real/a.txt', 'a\n');
    mkdirSync(path.join(ws.root, 'links'));
    symlinkSync('../real/a.txt', path.join(ws.root, 'links', 'a.txt'));
    symlinkSync('../../outside/secret.txt', path.join(ws.root, 'links', 'escape.txt'));
    expect((await readFileTool.run({ path: 'links/a.txt' }, ws.context)).isError).toBe(false);
    expectRefused(await readFileTool.run({ path: 'links/escape.txt' }, ws.context), 'links/escape.txt');
  });

  it('resolves names that merely start with two dots as inside', async () => {
    const resolved = await resolveInWorkspace(ws.root, '..notes/a.txt');
    expect(resolved).toEqual({ ok: true, absolute: path.join(ws.root, '..notes', 'a.txt'), relative: '..notes/a.txt' });
  });

  it('reports a symlink loop instead of hanging', async () => {
    symlinkSync(path.join(ws.root, 'loop-b'), path.join(ws.root, 'loop-a'));
    symlinkSync(path.join(ws.root, 'loop-a'), path.join(ws.root, 'loop-b'));
    const resolved = await resolveInWorkspace(ws.root, 'loop-a/x.txt');
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.message).toMatch(/loop of symbolic links/);
  });

  it('refuses an empty path with a hint', async () => {
    const resolved = await resolveInWorkspace(ws.root, '  ');
    expect(resolved).toEqual({ ok: false, message: expect.stringMatching(/empty/) });
  });
});
