import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bashTool, runInPty } from '../../../../main/tools/bash';
import { killProcessesWith, makeContext, makeWorkspace, processesWith, sleep, uniqueMarker } from './support';

const { workspace, remove } = makeWorkspace();
afterAll(remove);

const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) killProcessesWith(marker);
});

/** `sleep 300.<marker>`: a sleep that can be found again by its command line. */
function markedSleep(): { marker: string; sleep: string } {
  const marker = uniqueMarker();
  markers.push(marker);
  return { marker, sleep: `sleep 300.${marker}` };
}

describe('bash tool: timeout', () => {
  it('kills a command that runs too long and returns the output so far as an error', { timeout: 20_000 }, async () => {
    const { marker, sleep: longSleep } = markedSleep();
    const result = await bashTool.run({ command: `echo started; ${longSleep}`, timeout: 1 }, makeContext(workspace));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^started\n\[timed out after 1 s: the command and its child processes were killed/);
    await sleep(300);
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves no process alive: background children, setsid, nohup and a double-forked daemon', { timeout: 20_000 }, async () => {
    const a = markedSleep();
    const b = markedSleep();
    const c = markedSleep();
    const d = markedSleep();
    const command = [`${a.sleep} &`, `setsid ${b.sleep} &`, `nohup ${c.sleep} >/dev/null 2>&1 &`, `(setsid ${d.sleep} &)`, 'echo spawned', 'sleep 30'].join(
      '\n',
    );
    const result = await bashTool.run({ command, timeout: 1.5 }, makeContext(workspace));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^spawned\n\[timed out after 1.5 s/);
    await sleep(300);
    for (const { marker } of [a, b, c, d]) expect(processesWith(marker)).toEqual([]);
  });

  it('kills with SIGKILL what ignores SIGTERM', { timeout: 20_000 }, async () => {
    const { marker, sleep: longSleep } = markedSleep();
    // An ignored signal stays ignored across exec, so the sleep ignores SIGTERM too.
    const result = await bashTool.run({ command: `trap '' TERM; ${longSleep}; true`, timeout: 1 }, makeContext(workspace));
    expect(result.isError).toBe(true);
    await sleep(300);
    expect(processesWith(marker)).toEqual([]);
  });
});

describe('bash tool: the person stops the task', () => {
  it('stops a running command promptly and kills its tree', { timeout: 20_000 }, async () => {
    const child = markedSleep();
    const daemon = markedSleep();
    const controller = new AbortController();
    const context = makeContext(workspace, { signal: controller.signal });
    const onOutput = context.onOutput;
    context.onOutput = (chunk) => {
      onOutput?.(chunk);
      if (chunk.includes('ready')) controller.abort();
    };
    const result = await bashTool.run({ command: `${child.sleep} & setsid ${daemon.sleep} & echo ready; sleep 60` }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^ready\n\[stopped by the person: the command and its child processes were killed/);
    await sleep(300);
    expect(processesWith(child.marker)).toEqual([]);
    expect(processesWith(daemon.marker)).toEqual([]);
  });

  it('honours a stop that comes while the command is being started', { timeout: 20_000 }, async () => {
    const { marker, sleep: longSleep } = markedSleep();
    const controller = new AbortController();
    const running = runInPty(longSleep, { cwd: workspace, signal: controller.signal });
    controller.abort(); // runInPty is still checking the directory
    const run = await running;
    expect(run.ending).toBe('aborted');
    await sleep(300);
    expect(processesWith(marker)).toEqual([]);
  });

  it('does not start a command when the task was already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await bashTool.run({ command: 'touch should-not-exist' }, makeContext(workspace, { signal: controller.signal }));
    expect(result.isError).toBe(true);
    const check = await bashTool.run({ command: 'ls' }, makeContext(workspace));
    expect(check.content).not.toContain('should-not-exist');
  });
});

describe('bash tool: background processes after a normal exit', () => {
  it('returns when the command exits even if a background job still holds the terminal', { timeout: 20_000 }, async () => {
    const held = markedSleep();
    const detached = markedSleep();
    const result = await bashTool.run({ command: `(trap '' HUP; ${held.sleep}; echo late) & setsid ${detached.sleep} & echo done` }, makeContext(workspace));
    expect(result).toEqual({ content: 'done\n[exit code: 0]', isError: false });
  });
});
