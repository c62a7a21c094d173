import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { dispatchRequest } from '../../../main/api/dispatch';
import { killProcessesWith, processesWith, uniqueMarker } from '../../unit/tools/bash/support';
import { PROMPT, TerminalHarness, isolateShellEnvironment, waitFor } from './support';

const restoreEnvironment = isolateShellEnvironment();
afterAll(restoreEnvironment);

let h: TerminalHarness;
const markers: string[] = [];
beforeEach(() => {
  h = new TerminalHarness();
});
afterEach(async () => {
  await h.close();
  for (const marker of markers.splice(0)) killProcessesWith(marker);
});

describe('terminal: a shell in a tab', () => {
  it("starts the person's shell in the workspace, echoes what is typed and prints the output", async () => {
    const info = await h.create();
    expect(info).toMatchObject({ title: 'bash', cwd: h.workspace });
    expect(info.pid).toBeGreaterThan(0);
    expect(h.core.handlers['terminal.list']({})).toEqual({ ok: true, value: [info] });
    await h.waitForOutput(info.id, PROMPT);
    await h.type(info.id, 'echo hello\r');
    await h.waitForOutput(info.id, `${PROMPT}echo hello\nhello\n${PROMPT}`);
  });

  it("runs in the workspace folder with a terminal's environment", async () => {
    const { id } = await h.create();
    await h.type(id, 'pwd; echo "term=$TERM colors=$COLORTERM"\r');
    await h.waitForOutput(id, `\n${h.workspace}\n`);
    await h.waitForOutput(id, '\nterm=xterm-256color colors=truecolor\n');
  });

  it('delivers CJK text and emoji intact, also where a read splits a character', async () => {
    const { id } = await h.create();
    // Octal escapes, so the typed line echoed back does not itself contain the characters.
    await h.type(id, `printf '\\344\\270\\255\\346\\226\\207 \\360\\237\\230\\200 %s\\n' ok\r`);
    await h.waitForOutput(id, '\n中文 😀 ok\n');
    // 3- and 4-byte characters over 200 KB of output: pty reads of a few KB end inside some of them.
    const from = h.output(id).length;
    await h.type(id, `for i in $(seq 20000); do printf '\\344\\270\\255\\360\\237\\230\\200\\346\\226\\207'; done; echo; echo ""done\r`);
    const text = await h.waitForOutput(id, '\ndone\n', from, 20_000);
    expect(text).toContain('中😀文'.repeat(20_000));
    expect(text).not.toContain('\uFFFD');
  });

  it('resizes the pty', async () => {
    const { id } = await h.create({ cols: 80, rows: 24 });
    await h.type(id, 'stty size\r');
    await h.waitForOutput(id, '\n24 80\n');
    expect(await h.core.handlers['terminal.resize']({ id, cols: 132, rows: 43 })).toEqual({ ok: true, value: {} });
    const from = h.output(id).length;
    await h.type(id, 'stty size\r');
    await h.waitForOutput(id, '\n43 132\n', from);
  });

  it('reports a shell that exits by itself, and reaps what it left running', async () => {
    const { id } = await h.create();
    const marker = uniqueMarker();
    markers.push(marker);
    await h.type(id, `setsid sleep 305.${marker} & sleep 306.${marker} & exit 3\r`);
    const exit = await waitFor(() => h.events.find((e) => e.channel === 'terminal.exit'), 'terminal.exit');
    expect(exit.payload).toEqual({ id, exitCode: 3, signal: null });
    expect(h.core.handlers['terminal.list']({})).toEqual({ ok: true, value: [] });
    await waitFor(() => processesWith(marker).length === 0, 'the leftovers to be killed', 10_000, 250);
    // Nothing of the tab follows its exit.
    expect(h.events.at(-1)).toBe(exit);

    // Late housekeeping from the window is fine; typing into the ended tab is not.
    expect(await h.core.handlers['terminal.ack']({ id, bytes: 10 })).toEqual({ ok: true, value: {} });
    expect(await h.core.handlers['terminal.resize']({ id, cols: 90, rows: 30 })).toEqual({ ok: true, value: {} });
    const input = await h.core.handlers['terminal.input']({ id, data: 'ls\r' });
    expect(input).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(!input.ok && input.error.message).toContain('has ended (exit code 3)');
    expect(await h.core.handlers['terminal.close']({ id })).toEqual({ ok: true, value: { closed: false } });
  });

  it('refuses ids it never gave out, and malformed requests', async () => {
    await h.create();
    for (const result of [
      await h.core.handlers['terminal.input']({ id: 'nope', data: 'x' }),
      await h.core.handlers['terminal.resize']({ id: 'nope', cols: 10, rows: 10 }),
      await h.core.handlers['terminal.ack']({ id: 'nope', bytes: 1 }),
      await h.core.handlers['terminal.close']({ id: 'nope' }),
    ]) {
      expect(result).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(!result.ok && result.error.message).toContain('There is no terminal "nope"');
    }
    expect(await dispatchRequest(h.core.handlers, 'terminal.create', { cols: 0, rows: 24 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await dispatchRequest(h.core.handlers, 'terminal.ack', { id: 't1', chars: -5 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('starts shells at home when no folder is open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-term-data-'));
    const core = new KeelCore({ dataDir, host: 'web', version: 'test' });
    try {
      const created = await core.handlers['terminal.create']({ cols: 80, rows: 24 });
      expect(created).toMatchObject({ ok: true, value: { cwd: process.env.HOME } });
    } finally {
      await core.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
