import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { KeelCore } from '../../../main/api/core';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse } from '../../support/scriptedAnthropic';
import { answer, eventsOf, nthEvent, realTools, runTask, startTask, status, value } from './support';

// The approval cards of the window, driven through the contract with the real file and bash tools.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function rules(core: KeelCore): Promise<string[]> {
  return value(await core.handlers['approval.rules']({})).rules;
}

describe('mode "ask": the agent asks before a command', () => {
  it('shows the exact command and waits; "Allow once" runs it', async () => {
    const command = 'touch ran.txt && echo made-it';
    harness = await startAgentHarness([reply(text('Creating the file.'), toolUse('bash', { command }, 'toolu_cmd')), reply(text('Done.'))], {
      tools: realTools(),
      approvals: 'ask',
    });
    const task = await startTask(harness, 'create ran.txt');
    const asked = await nthEvent(harness, 'approval_requested');
    expect(asked.request).toMatchObject({ tool: 'bash', toolUseId: 'toolu_cmd', command });
    expect(asked.request.diff).toBeUndefined();

    // It waits: nothing ran, no further request went to the model, and the status says so.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(join(harness.workspace, 'ran.txt'))).toBe(false);
    expect(harness.server.requests).toHaveLength(1);
    const waiting = await status(harness);
    expect(waiting).toMatchObject({ running: true, state: 'waiting_approval' });
    expect(waiting.pendingApprovals).toEqual([asked.request]);

    expect(await answer(harness, asked.request.id, 'allow_once')).toBe(true);
    const finished = await task.finished;
    expect(finished.outcome).toBe('done');
    expect(existsSync(join(harness.workspace, 'ran.txt'))).toBe(true);
    expect(eventsOf(harness, 'approval_resolved')).toEqual([{ type: 'approval_resolved', id: asked.request.id, decision: 'allow_once' }]);
    const result = eventsOf(harness, 'tool_result')[0]!;
    expect(result).toMatchObject({ id: 'toolu_cmd', isError: false });
    expect(result.content).toContain('made-it');
    // A card answered once is gone: answering it again does nothing.
    expect(await answer(harness, asked.request.id, 'allow_once')).toBe(false);
    expect((await status(harness)).pendingApprovals).toEqual([]);
    // "Allow once" adds no rule.
    expect(await rules(harness.core)).toEqual([]);
    expect(harness.server.errors).toEqual([]);
  });
});

describe('mode "ask": the card of a file change carries a diff', () => {
  it('a new file and an overwrite are shown as unified diffs; "Deny" with a reason leaves the file untouched and the model is told why', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('write_file', { path: 'notes/todo.txt', content: 'buy milk\nwalk the dog\n' }, 'toolu_new')),
        reply(toolUse('write_file', { path: 'notes/todo.txt', content: 'buy milk\nfeed the cat\n' }, 'toolu_over')),
        reply(text('Understood, I left it as it was.')),
      ],
      { tools: realTools(), approvals: 'ask' },
    );
    const file = join(harness.workspace, 'notes', 'todo.txt');
    const task = await startTask(harness, 'keep my notes');

    const created = (await nthEvent(harness, 'approval_requested', 1)).request;
    expect(created).toMatchObject({ tool: 'write_file', toolUseId: 'toolu_new', path: 'notes/todo.txt', sessionRule: 'file_change' });
    expect(created.command).toBeUndefined();
    expect(created.diff).toContain('--- /dev/null');
    expect(created.diff).toContain('+++ b/notes/todo.txt');
    expect(created.diff).toContain('@@ -0,0 +1,2 @@');
    expect(created.diff).toContain('+buy milk\n+walk the dog');
    expect(existsSync(file)).toBe(false);
    expect(await answer(harness, created.id, 'allow_once')).toBe(true);

    const overwrite = (await nthEvent(harness, 'approval_requested', 2)).request;
    expect(readFileSync(file, 'utf8')).toBe('buy milk\nwalk the dog\n');
    expect(overwrite).toMatchObject({ tool: 'write_file', toolUseId: 'toolu_over', path: 'notes/todo.txt' });
    expect(overwrite.diff).toContain('--- a/notes/todo.txt');
    expect(overwrite.diff).toContain('+++ b/notes/todo.txt');
    expect(overwrite.diff).toContain(' buy milk\n-walk the dog\n+feed the cat');
    expect(await answer(harness, overwrite.id, { deny: 'the dog still needs walking' })).toBe(true);

    const finished = await task.finished;
    expect(finished.outcome).toBe('done');
    expect(readFileSync(file, 'utf8')).toBe('buy milk\nwalk the dog\n');
    expect(eventsOf(harness, 'approval_resolved').map((e) => e.decision)).toEqual(['allow_once', 'deny']);

    // The model's next request answers the denied call with an error carrying the person's reason.
    const [denied] = toolResults(harness.server.requests[2]!);
    expect(denied).toMatchObject({ tool_use_id: 'toolu_over', is_error: true });
    expect(toolResultText(denied!)).toContain('denied');
    expect(toolResultText(denied!)).toContain('the dog still needs walking');
    const [written] = toolResults(harness.server.requests[1]!);
    expect(written).toMatchObject({ tool_use_id: 'toolu_new' });
    expect(written!.is_error).toBeUndefined();
    expect(harness.server.errors).toEqual([]);
  });

  it('an edit shows only the lines it changes', async () => {
    harness = await startAgentHarness(
      [reply(toolUse('edit_file', { path: 'app.py', old_text: 'print("hi")', new_text: 'print("hello")' }, 'toolu_edit')), reply(text('Edited.'))],
      { tools: realTools(), approvals: 'ask' },
    );
    writeFileSync(join(harness.workspace, 'app.py'), 'import sys\n\nprint("hi")\nsys.exit(0)\n');
    const task = await startTask(harness, 'say hello');
    const card = (await nthEvent(harness, 'approval_requested')).request;
    expect(card).toMatchObject({ tool: 'edit_file', path: 'app.py' });
    expect(card.diff).toContain('--- a/app.py');
    expect(card.diff).toContain('-print("hi")\n+print("hello")');
    expect(card.diff).not.toContain('-import sys');
    await answer(harness, card.id, 'allow_once');
    expect((await task.finished).outcome).toBe('done');
    expect(readFileSync(join(harness.workspace, 'app.py'), 'utf8')).toBe('import sys\n\nprint("hello")\nsys.exit(0)\n');
  });
});

describe('"Allow for this session"', () => {
  it('adds a rule for the program: the next command of it runs without asking, another program still asks; revoking the rule makes it ask again', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('bash', { command: 'echo first' }, 'toolu_1')),
        reply(toolUse('bash', { command: 'echo second' }, 'toolu_2')),
        reply(toolUse('bash', { command: 'printf third' }, 'toolu_3')),
        reply(text('All three ran.')),
        reply(toolUse('bash', { command: 'echo fourth' }, 'toolu_4')),
        reply(text('Ran it.')),
      ],
      { tools: realTools(), approvals: 'ask' },
    );
    const task = await startTask(harness, 'run some commands');
    const first = (await nthEvent(harness, 'approval_requested', 1)).request;
    expect(first).toMatchObject({ command: 'echo first', sessionRule: 'command:echo' });
    await answer(harness, first.id, 'allow_session');

    // "echo second" runs without a card; "printf third" asks.
    const third = (await nthEvent(harness, 'approval_requested', 2)).request;
    expect(third).toMatchObject({ command: 'printf third', sessionRule: 'command:printf' });
    expect(eventsOf(harness, 'tool_result').map((r) => [r.id, r.isError])).toEqual([
      ['toolu_1', false],
      ['toolu_2', false],
    ]);
    expect(eventsOf(harness, 'tool_result')[1]!.content).toContain('second');
    expect(await rules(harness.core)).toEqual(['command:echo']);
    await answer(harness, third.id, 'allow_once');
    expect((await task.finished).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(2);
    expect(await rules(harness.core)).toEqual(['command:echo']);

    // Revoked: the same program asks again.
    expect(value(await harness.core.handlers['approval.revoke']({ rule: 'command:echo' })).rules).toEqual([]);
    const again = await startTask(harness, 'once more');
    const fourth = (await nthEvent(harness, 'approval_requested', 3)).request;
    expect(fourth).toMatchObject({ command: 'echo fourth' });
    await answer(harness, fourth.id, 'allow_once');
    expect((await again.finished).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
  });

  it('a rule for one program does not let a chained command run another program unasked', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('bash', { command: 'echo hello' }, 'toolu_1')),
        reply(toolUse('bash', { command: 'echo ok && touch chained.txt' }, 'toolu_2')),
        reply(toolUse('bash', { command: 'echo ok; touch semicolon.txt' }, 'toolu_3')),
        reply(toolUse('bash', { command: 'echo $(touch substituted.txt)' }, 'toolu_4')),
        reply(toolUse('bash', { command: 'echo "a && b; c | d" 2>&1 | echo piped' }, 'toolu_5')),
        reply(text('Done.')),
      ],
      { tools: realTools(), approvals: 'ask' },
    );
    const task = await startTask(harness, 'run things');
    await answer(harness, (await nthEvent(harness, 'approval_requested', 1)).request.id, 'allow_session');
    expect(await rules(harness.core)).toEqual(['command:echo']);

    for (const [n, command, deniedFile] of [
      [2, 'echo ok && touch chained.txt', 'chained.txt'],
      [3, 'echo ok; touch semicolon.txt', 'semicolon.txt'],
      [4, 'echo $(touch substituted.txt)', 'substituted.txt'],
    ] as const) {
      const card = (await nthEvent(harness, 'approval_requested', n)).request;
      expect(card.command).toBe(command);
      expect(existsSync(join(harness.workspace, deniedFile))).toBe(false);
      await answer(harness, card.id, { deny: 'not that' });
    }
    // Only echo, chained with itself (quoted operators are text): runs without a card.
    expect((await task.finished).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(4);
    const last = eventsOf(harness, 'tool_result').at(-1)!;
    expect(last).toMatchObject({ id: 'toolu_5', isError: false });
    expect(last.content).toContain('piped');
    for (const file of ['chained.txt', 'semicolon.txt', 'substituted.txt']) expect(existsSync(join(harness.workspace, file))).toBe(false);
  });

  it('a rule for echo does not cover echo writing into a file, nor a write outside the workspace', async () => {
    // A stand-in home: if the card were skipped, the real ~/.bashrc would be untouched anyway.
    const home = mkdtempSync(join(tmpdir(), 'keel-home-'));
    const realHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const attack = 'echo x >> ~/.bashrc; echo owned > tracked.txt';
      harness = await startAgentHarness(
        [
          reply(toolUse('bash', { command: 'echo hello' }, 'toolu_1')),
          reply(toolUse('bash', { command: attack }, 'toolu_2')),
          reply(toolUse('bash', { command: 'echo owned > tracked.txt' }, 'toolu_3')),
          reply(toolUse('bash', { command: 'sudo echo hi' }, 'toolu_4')),
          reply(text('Done.')),
        ],
        { tools: realTools(), approvals: 'ask' },
      );
      writeFileSync(join(harness.workspace, 'tracked.txt'), 'mine\n');
      const task = await startTask(harness, 'echo things');
      await answer(harness, (await nthEvent(harness, 'approval_requested', 1)).request.id, 'allow_session');
      expect(await rules(harness.core)).toEqual(['command:echo']);
      for (const [n, command, alwaysAsks] of [
        [2, attack, { kind: 'outside', detail: '~/.bashrc' }],
        [3, 'echo owned > tracked.txt', undefined],
        [4, 'sudo echo hi', { kind: 'wrapper', detail: 'sudo' }],
      ] as const) {
        const card = (await nthEvent(harness, 'approval_requested', n)).request;
        expect(card.command).toBe(command);
        // The card says why no rule covers it.
        expect(card.alwaysAsks).toEqual(alwaysAsks);
        await answer(harness, card.id, { deny: 'no' });
      }
      expect((await task.finished).outcome).toBe('done');
      expect(existsSync(join(home, '.bashrc'))).toBe(false);
      expect(readFileSync(join(harness.workspace, 'tracked.txt'), 'utf8')).toBe('mine\n');
    } finally {
      process.env.HOME = realHome;
    }
  });

  it('for a pipe, the rule names each of its programs, and allows each of them', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('bash', { command: 'echo piped 2>&1 | tail -n 1' }, 'toolu_1')),
        reply(toolUse('bash', { command: 'tail -n 1 seen.txt' }, 'toolu_2')),
        reply(text('Done.')),
      ],
      { tools: realTools(), approvals: 'ask' },
    );
    writeFileSync(join(harness.workspace, 'seen.txt'), 'last line\n');
    const task = await startTask(harness, 'pipe');
    const card = (await nthEvent(harness, 'approval_requested')).request;
    expect(card.sessionRule).toBe('command:echo tail');
    await answer(harness, card.id, 'allow_session');
    expect((await task.finished).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(1);
    expect(
      eventsOf(harness, 'tool_result')
        .map((r) => r.content)
        .join('\n'),
    ).toContain('last line');
    expect(await rules(harness.core)).toEqual(['command:echo tail']);
  });

  it('the rules survive reopening the session, and so does a revocation', async () => {
    harness = await startAgentHarness([reply(toolUse('bash', { command: 'echo first' }, 'toolu_1')), reply(text('Done.'))], {
      tools: realTools(),
      approvals: 'ask',
    });
    const task = await startTask(harness, 'run echo');
    await answer(harness, (await nthEvent(harness, 'approval_requested')).request.id, 'allow_session');
    expect((await task.finished).outcome).toBe('done');
    const sessionId = harness.core.currentSession!.id;

    // A restart: a new core on the same data folder reopens the folder's session.
    const h = harness;
    const reopen = (): KeelCore => {
      const core = new KeelCore({ dataDir: h.dataDir, host: 'web', version: 'test', tools: realTools, settings: () => h.settings });
      value(core.openWorkspace(h.workspace));
      expect(core.currentSession!.id).toBe(sessionId);
      return core;
    };
    const second = reopen();
    expect(await rules(second)).toEqual(['command:echo']);
    const seen: string[] = [];
    second.onEvent((e) => {
      if (e.channel === 'agent.event') seen.push(e.payload.type);
    });
    h.server.push(reply(toolUse('bash', { command: 'echo after-restart' }, 'toolu_2')), reply(text('Ran it.')));
    const done = await second.currentAgent!.runTask('run echo again');
    expect(done.outcome).toBe('done');
    expect(seen).not.toContain('approval_requested');
    expect(toolResultText(toolResults(h.server.requests.at(-1)!)[0]!)).toContain('after-restart');

    expect(value(await second.handlers['approval.revoke']({ rule: 'command:echo' })).rules).toEqual([]);
    expect(await rules(reopen())).toEqual([]);
    expect(h.server.errors).toEqual([]);
  });
});

describe('the other approval modes', () => {
  it('"auto_edits": a file change goes ahead, a command asks', async () => {
    harness = await startAgentHarness(
      [reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' }, 'toolu_w'), toolUse('bash', { command: 'cat a.txt' }, 'toolu_b')), reply(text('Done.'))],
      { tools: realTools(), approvals: 'auto_edits' },
    );
    const task = await startTask(harness, 'write and show a.txt');
    const card = (await nthEvent(harness, 'approval_requested')).request;
    expect(card).toMatchObject({ tool: 'bash', command: 'cat a.txt' });
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('A\n');
    await answer(harness, card.id, 'allow_once');
    expect((await task.finished).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(1);
    expect(eventsOf(harness, 'tool_result').map((r) => [r.id, r.isError])).toEqual([
      ['toolu_w', false],
      ['toolu_b', false],
    ]);
  });

  it('"full_auto": nothing asks', async () => {
    harness = await startAgentHarness(
      [reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' }, 'toolu_w'), toolUse('bash', { command: 'cat b.txt' }, 'toolu_b')), reply(text('Done.'))],
      { tools: realTools(), approvals: 'full_auto' },
    );
    expect((await runTask(harness, 'write and show b.txt')).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toEqual([]);
    expect(eventsOf(harness, 'state').map((e) => e.state)).not.toContain('waiting_approval');
    expect(eventsOf(harness, 'tool_result')[1]!.content).toContain('B');
  });

  it('the mode is read for every call: switching to full_auto in the settings applies to the next task', async () => {
    harness = await startAgentHarness(
      [reply(toolUse('bash', { command: 'echo one' })), reply(text('Done.')), reply(toolUse('bash', { command: 'echo two' })), reply(text('Done.'))],
      {
        tools: realTools(),
        approvals: 'ask',
      },
    );
    const task = await startTask(harness, 'one');
    await answer(harness, (await nthEvent(harness, 'approval_requested')).request.id, 'allow_once');
    await task.finished;
    value(await harness.core.handlers['settings.update']({ approvalMode: 'full_auto' }));
    expect((await runTask(harness, 'two')).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(1);
  });
});

describe('stopping the task while a card waits', () => {
  it('ends the task promptly as cancelled, runs nothing, and leaves a history the model accepts', async () => {
    harness = await startAgentHarness(
      [
        reply(
          text('Two steps.'),
          toolUse('bash', { command: 'touch stopped.txt' }, 'toolu_cmd'),
          toolUse('write_file', { path: 'w.txt', content: 'w' }, 'toolu_w'),
        ),
        reply(text('Fine, starting over.')),
      ],
      { tools: realTools(), approvals: 'ask' },
    );
    const task = await startTask(harness, 'do two things');
    const card = (await nthEvent(harness, 'approval_requested')).request;
    expect(value(await harness.core.handlers['task.stop']({})).stopped).toBe(true);
    // Ends without the card being answered (the test's own timeout is the deadline).
    const finished = await task.finished;
    expect(finished.outcome).toBe('cancelled');

    const after = await status(harness);
    expect(after).toMatchObject({ running: false, state: 'cancelled', pendingApprovals: [] });
    expect(await answer(harness, card.id, 'allow_once')).toBe(false);
    expect(existsSync(join(harness.workspace, 'stopped.txt'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'w.txt'))).toBe(false);
    expect(eventsOf(harness, 'approval_requested')).toHaveLength(1);
    expect(eventsOf(harness, 'tool_result').map((r) => [r.id, r.isError])).toEqual([
      ['toolu_cmd', true],
      ['toolu_w', true],
    ]);

    // The next task goes to the validating server with both calls answered.
    expect((await runTask(harness, 'start over')).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const next = harness.server.requests[1]!;
    expect(next.rejected).toBeUndefined();
    const answered = next.body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
    expect(answered.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ['toolu_cmd', true],
      ['toolu_w', true],
    ]);
    expect(toolResultText(answered[0]!)).toContain('Cancelled');
  });

  it('many cards in one task leave no listener behind on the task (no leak warning)', async () => {
    const count = 14;
    // A tool Keel does not know is treated as a command: it asks every time.
    const deploy: AgentTool = {
      name: 'deploy',
      description: 'Deploys.',
      inputSchema: z.object({ command: z.string() }),
      run: async () => ({ content: 'deployed', isError: false }),
    };
    harness = await startAgentHarness(
      [...Array.from({ length: count }, (_, i) => reply(toolUse('deploy', { command: `deploy n${i}` }))), reply(text('Done.'))],
      { tools: [deploy], approvals: 'ask' },
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const task = await startTask(harness, 'count');
      for (let n = 1; n <= count; n++) await answer(harness, (await nthEvent(harness, 'approval_requested', n)).request.id, 'allow_once');
      expect((await task.finished).outcome).toBe('done');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('answers that do not fit', () => {
  it('an unknown card id is not answered; no task running means nothing waits', async () => {
    harness = await startAgentHarness([], { approvals: 'ask' });
    expect(await answer(harness, 'no-such-card', 'allow_once')).toBe(false);
    expect(await status(harness)).toMatchObject({ running: false, state: 'idle', pendingApprovals: [], queued: [] });
  });
});

describe('one approval mode in force, told to every window', () => {
  it('Settings and the status bar set the same mode; windows hear it; a new session starts with the last choice', async () => {
    harness = await startAgentHarness([reply(toolUse('bash', { command: 'echo one' })), reply(text('Done.'))], { tools: realTools(), approvals: 'ask' });
    const { core } = harness;
    const heard: string[] = [];
    core.onEvent((event) => {
      if (event.channel === 'approval.modeChanged') heard.push(event.payload.mode);
    });
    // A session that chose its own mode earlier: Settings still switches it, and says so to the windows.
    value(await core.handlers['approval.setMode']({ mode: 'auto_edits' }));
    value(await core.handlers['settings.update']({ approvalMode: 'full_auto' }));
    expect((await status(harness)).approvalMode).toBe('full_auto');
    expect(heard).toEqual(['auto_edits', 'full_auto']);
    expect((await runTask(harness, 'one')).outcome).toBe('done');
    expect(eventsOf(harness, 'approval_requested')).toEqual([]);

    // The status bar's choice is the default for the next session.
    value(await core.handlers['approval.setMode']({ mode: 'ask' }));
    expect(value(await core.handlers['settings.get']({})).approvalMode).toBe('ask');
    expect(heard.at(-1)).toBe('ask');
    value(await core.handlers['session.new']({}));
    expect((await status(harness)).approvalMode).toBe('ask');
  });
});
