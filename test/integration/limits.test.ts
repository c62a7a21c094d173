import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMain, WebContents } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../common/contract';
import type { Result } from '../../common/result';
import { KeelCore } from '../../main/api/core';
import { bindIpc } from '../../main/electron/ipc';

// The contract's limits on the Electron IPC path: the real binding (bindIpc) over a real core,
// with a stand-in for ipcMain that only records handlers, as Electron itself is not loaded here.

type Handler = (event: { sender: WebContents }, payload: unknown) => Promise<Result<unknown>>;

let tmp: string;
let workspace: string;
let core: KeelCore;
const handlers = new Map<string, Handler>();
const ownWindow = {} as WebContents;

const invoke = (channel: string, payload: unknown) => handlers.get(`keel:${channel}`)!({ sender: ownWindow }, payload);

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-limits-')));
  workspace = join(tmp, 'project');
  mkdirSync(workspace);
  core = new KeelCore({ dataDir: join(tmp, 'data'), host: 'electron', version: 'test' });
  expect(core.openWorkspace(workspace).ok).toBe(true);
  const ipcMain = { handle: (channel: string, fn: Handler) => handlers.set(channel, fn), removeHandler: (channel: string) => handlers.delete(channel) };
  bindIpc(ipcMain as unknown as IpcMain, core, (sender) => sender === ownWindow);
});

afterEach(async () => {
  handlers.clear();
  await core.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

function errorOf(result: Result<unknown>): { code: string; message: string } {
  expect(result.ok, JSON.stringify(result).slice(0, 300)).toBe(false);
  return (result as { ok: false; error: { code: string; message: string } }).error;
}

describe('limits over IPC', () => {
  it('refuses a message, a terminal input and a plan edit over their limits, saying which limit', async () => {
    const message = errorOf(await invoke('task.send', { text: 'm'.repeat(LIMITS.messageChars + 1) }));
    expect(message.code).toBe('bad_request');
    expect(message.message).toContain(`at most ${LIMITS.messageChars} characters`);
    const input = errorOf(await invoke('terminal.input', { id: 't1', data: 'i'.repeat(LIMITS.terminalInputChars + 1) }));
    expect(input.message).toContain(`at most ${LIMITS.terminalInputChars} characters`);
    const tooMany = errorOf(
      await invoke('plan.edit', { baseVersion: 0, items: Array.from({ length: LIMITS.planEditItems + 1 }, (_, i) => ({ content: `step ${i}` })) }),
    );
    expect(tooMany.message).toContain(`at most ${LIMITS.planEditItems}`);
    const tooLong = errorOf(await invoke('plan.edit', { baseVersion: 0, items: [{ content: 'c'.repeat(3 * 1024 * 1024) }] }));
    expect(tooLong.message).toContain('Too long');
  });

  it('saves a long paste as a file in the workspace and answers its path', async () => {
    const text = 'pasted log\n'.repeat(20_000);
    const first = await invoke('paste.save', { text });
    const second = await invoke('paste.save', { text: 'another' });
    expect(first.ok && second.ok).toBe(true);
    const a = (first as { ok: true; value: { path: string } }).value.path;
    const b = (second as { ok: true; value: { path: string } }).value.path;
    expect(a).toMatch(/^\.keel\/pastes\/paste-\d{8}-\d{6}(-\d+)?\.txt$/);
    expect(b).not.toBe(a); // never over an earlier paste
    expect(readFileSync(join(workspace, a), 'utf8')).toBe(text);
    expect(readFileSync(join(workspace, b), 'utf8')).toBe('another');
    expect(errorOf(await invoke('paste.save', { text: 'x'.repeat(LIMITS.pasteFileChars + 1) })).message).toContain(
      `at most ${LIMITS.pasteFileChars} characters`,
    );
  });

  it('refuses to save a paste through a .keel that links out of the workspace', async () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, '.keel'));
    const refused = errorOf(await invoke('paste.save', { text: 'secret' }));
    expect(refused.message).toContain('outside the workspace');
  });
});
