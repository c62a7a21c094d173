import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanSnapshot, ProposedPlanItem } from '../../common/contract';
import type { Result } from '../../common/result';
import { KeelCore } from '../../main/api/core';
import { snapshot } from '../../main/api/snapshots';
import { dispatchRequest } from '../../main/api/dispatch';
import type { WorkspaceSession } from '../../main/session/workspaceSession';

// Sessions on a real data folder: saved, cut off by a "crash", damaged, and restored by a new core.

let tmp: string;
let dataDir: string;
let folder: string;

interface Started {
  core: KeelCore;
  session: WorkspaceSession;
  logs: string[];
}

/** A fresh core on the shared data folder: what a restart of Keel amounts to. */
function start(workspace = folder): Started {
  const logs: string[] = [];
  const core = new KeelCore({ dataDir, host: 'web', version: '0.0.0-test', log: (m) => logs.push(m) });
  const opened = core.openWorkspace(workspace);
  if (!opened.ok) throw new Error(opened.error.message);
  const session = core.currentSession;
  if (!session) throw new Error('no session after opening');
  return { core, session, logs };
}

async function edit(core: KeelCore, baseVersion: number, items: ProposedPlanItem[]): Promise<PlanSnapshot> {
  const result = (await dispatchRequest(core.handlers, 'plan.edit', { baseVersion, items })) as Result<PlanSnapshot>;
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'keel-sessions-'));
  dataDir = join(tmp, 'data');
  folder = join(tmp, 'project');
  mkdirSync(folder);
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('restoring a session', () => {
  it('shows the same plan, ids and history after a restart', async () => {
    const first = start();
    await edit(first.core, 0, [
      { content: 'Read the existing code', status: 'completed' },
      { content: 'Write hello.py', status: 'in_progress', activeForm: 'Writing hello.py' },
      { content: 'Run it and check the output' },
    ]);
    const byAgent = first.session.plan.propose(
      [
        { id: '1', content: 'Read the existing code', status: 'completed' },
        { id: '2', content: 'Write hello.py', status: 'completed' },
        { id: '3', content: 'Run it and check the output', status: 'in_progress', activeForm: 'Running it' },
        { content: 'Tell the person' },
      ],
      { source: 'agent' },
    );
    expect(byAgent.ok).toBe(true);
    const before = snapshot(first.session.plan);
    expect(before).toMatchObject({ version: 2, source: 'agent' });

    const second = start();
    expect(second.logs).toEqual([]);
    expect(second.session.warnings).toEqual([]);
    expect(second.session.id).toBe(first.session.id);
    expect(second.session.transcriptPath).toBe(first.session.transcriptPath);
    expect(snapshot(second.session.plan)).toEqual(before);
    expect(second.session.plan.items.map((i) => i.id)).toEqual(['1', '2', '3', '4']);
    expect(second.session.plan.history).toEqual(first.session.plan.history);
    expect(second.session.plan.history.map((v) => v.source)).toEqual(['user', 'agent']);
    // What a client sees through the contract is the same, too.
    expect(await dispatchRequest(second.core.handlers, 'plan.get', {})).toEqual({ ok: true, value: before });

    // And the restored store goes on from there: a stale base is still a conflict.
    const conflict = await dispatchRequest(second.core.handlers, 'plan.edit', { baseVersion: 1, items: [] });
    expect(conflict).toMatchObject({ ok: false, error: { code: 'plan_conflict' } });
    const next = await edit(second.core, 2, [...before.items.slice(0, 3), { id: '4', content: 'Tell the person', status: 'pending' }]);
    expect(next.version).toBe(3);
  });

  it('starts the transcript with a session record', () => {
    const { session } = start();
    const [head] = lines(session.transcriptPath);
    expect(JSON.parse(head ?? '')).toMatchObject({ type: 'session', id: session.id, workspace: session.workspace });
  });
});

describe('a transcript damaged by a crash', () => {
  it('loads a transcript whose last line was cut off, and appends the next record on a new line', async () => {
    const first = start();
    const v1 = await edit(first.core, 0, [{ content: 'Step one', status: 'in_progress' }, { content: 'Step two' }]);
    const path = first.session.transcriptPath;
    const fragment = '{"type":"plan","version":2,"source":"agent","items":[{"id":"1","cont';
    appendFileSync(path, fragment);

    const second = start();
    expect(second.session.warnings).toHaveLength(1);
    expect(second.session.warnings[0]).toMatch(/line \d+ is damaged \(it was cut off/);
    expect(second.logs).toEqual([`warning: ${second.session.warnings[0]}`]);
    expect(snapshot(second.session.plan)).toEqual(v1);

    const v2 = await edit(second.core, 1, [
      { content: 'Step one', status: 'completed' },
      { content: 'Step two', status: 'in_progress' },
    ]);
    expect(v2.version).toBe(2);
    const written = lines(path);
    // The fragment stays on its own line; the new record did not glue onto it.
    expect(written).toContain(fragment);
    expect(written.at(-1)).toBe('');
    expect(JSON.parse(written.at(-2) ?? '')).toMatchObject({ type: 'plan', version: 2, source: 'user' });

    const third = start();
    expect(snapshot(third.session.plan)).toEqual(v2);
    expect(third.session.plan.history.map((v) => v.version)).toEqual([1, 2]);
    // Only the old fragment is reported (now in the middle, so no longer "cut off"); every record since reads cleanly.
    expect(third.session.warnings).toHaveLength(1);
    expect(third.session.warnings[0]).toContain(`line ${written.indexOf(fragment) + 1} is damaged and was skipped`);
  });

  it('skips a damaged line in the middle with a warning and keeps the rest', async () => {
    const first = start();
    await edit(first.core, 0, [{ content: 'Step one' }]);
    const v2 = await edit(first.core, 1, [{ content: 'Step one', status: 'in_progress' }, { content: 'Step two' }]);
    const path = first.session.transcriptPath;
    const original = lines(path);
    expect(original).toHaveLength(4); // session, v1, v2, and the empty string after the last newline
    writeFileSync(path, [original[0], original[1], 'garbage {{{ not json', '["a list is not a record"]', ...original.slice(2)].join('\n'));

    const second = start();
    expect(second.session.warnings).toEqual([`${path}: line 3 is damaged and was skipped.`, `${path}: line 4 is not a transcript record and was skipped.`]);
    expect(snapshot(second.session.plan)).toEqual(v2);
    expect(second.session.plan.history.map((v) => v.version)).toEqual([1, 2]);
  });

  it('skips an invalid saved plan version with a warning and does not repair it', async () => {
    const first = start();
    const v1 = await edit(first.core, 0, [{ content: 'Write the code', status: 'in_progress' }, { content: 'Test it' }]);
    const path = first.session.transcriptPath;
    const handWritten = {
      type: 'plan',
      version: 2,
      source: 'user',
      items: [
        { id: '1', content: 'Write the code', status: 'in_progress' },
        { id: '2', content: 'Test it', status: 'in_progress' },
      ],
      at: new Date().toISOString(),
    };
    appendFileSync(path, `${JSON.stringify(handWritten)}\n`);
    const fileBefore = readFileSync(path, 'utf8');

    const second = start();
    expect(second.session.warnings).toHaveLength(1);
    expect(second.session.warnings[0]).toContain('Saved plan version 2 is not a valid plan and was skipped');
    expect(second.session.warnings[0]).toContain('in_progress');
    // Not repaired: neither item was quietly set back to pending; the plan is the last valid version.
    expect(snapshot(second.session.plan)).toEqual(v1);
    expect(second.session.plan.history).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toBe(fileBefore);

    // The session goes on: the next accepted edit is version 2 and survives the next restart.
    const v2 = await edit(second.core, 1, [
      { content: 'Write the code', status: 'completed' },
      { content: 'Test it', status: 'in_progress' },
    ]);
    const third = start();
    expect(snapshot(third.session.plan)).toEqual(v2);
    expect(third.session.warnings).toHaveLength(1);
  });
});

describe('plan versions in the transcript', () => {
  const long = (n: number) => `Step ${n}: ${'check the long description of this step carefully '.repeat(9)}`.slice(0, 480);

  it('writes each version after the first as its changes only, and restores every version exactly', async () => {
    const first = start();
    const items = Array.from({ length: 12 }, (_, i) => ({ content: long(i + 1), status: i === 0 ? 'in_progress' : 'pending' }) as ProposedPlanItem);
    let plan = await edit(first.core, 0, items);
    for (let step = 1; step <= 8; step++) {
      plan = await edit(
        first.core,
        plan.version,
        plan.items.map((item, i) => ({ id: item.id, content: item.content, status: i < step ? 'completed' : i === step ? 'in_progress' : 'pending' })),
      );
    }
    // One reworded step and a new one at the end: only they carry their text.
    plan = await edit(first.core, plan.version, [
      ...plan.items.slice(0, 11).map((item, i) => ({ ...item, content: i === 10 ? 'Shorter step' : item.content })),
      { content: 'A new last step' },
    ]);
    const records = lines(first.session.transcriptPath).filter((l) => l.includes('"type":"plan"'));
    expect(records).toHaveLength(10);
    expect(records[0]!.length).toBeGreaterThan(12 * 480);
    for (const record of records.slice(1)) expect(record.length).toBeLessThan(1_000);
    expect(records.at(-1)).toContain('Shorter step');
    expect(records.at(-1)).not.toContain(long(1));

    const second = start();
    expect(second.session.warnings).toEqual([]);
    expect(second.session.plan.history).toEqual(first.session.plan.history);
    expect(snapshot(second.session.plan)).toEqual(plan);
  });

  it('validates a stored change like any plan, and skips a change whose base was skipped', async () => {
    const first = start();
    const v1 = await edit(first.core, 0, [{ content: 'Write the code', status: 'in_progress' }, { content: 'Test it' }]);
    const path = first.session.transcriptPath;
    const at = new Date().toISOString();
    const invalid = { type: 'plan', version: 2, source: 'user', at, base: 1, delta: [{ id: '1' }, { id: '2', status: 'in_progress' }] };
    const orphan = { type: 'plan', version: 3, source: 'user', at, base: 2, delta: [{ id: '1', status: 'completed' }, { id: '2' }] };
    appendFileSync(path, `${JSON.stringify(invalid)}\n${JSON.stringify(orphan)}\n`);

    const second = start();
    expect(second.session.warnings).toHaveLength(2);
    expect(second.session.warnings[0]).toContain('Saved plan version 2 is not a valid plan and was skipped');
    expect(second.session.warnings[0]).toContain('in_progress');
    expect(second.session.warnings[1]).toContain('Saved plan version 3 was skipped: it is stored as changes to version 2, which was not restored');
    expect(snapshot(second.session.plan)).toEqual(v1);
  });

  it("refuses a board edit with an item over 500 characters, in the validator's words; a 3 MB one already at the contract", async () => {
    const first = start();
    const long = (await dispatchRequest(first.core.handlers, 'plan.edit', { baseVersion: 0, items: [{ content: 'x'.repeat(600) }] })) as Result<PlanSnapshot>;
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error.message).toContain('Item 1 is 600 characters long; at most 500 are allowed');
    const huge = (await dispatchRequest(first.core.handlers, 'plan.edit', {
      baseVersion: 0,
      items: [{ content: 'x'.repeat(3 * 1024 * 1024) }],
    })) as Result<PlanSnapshot>;
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.error.message).toContain('Too long');
    expect(lines(first.session.transcriptPath).filter((l) => l.includes('"type":"plan"'))).toEqual([]);
  });
});

describe('which folder a session belongs to', () => {
  it('refuses a folder that does not exist, or a file, with workspace_not_found', async () => {
    const core = new KeelCore({ dataDir, host: 'web', version: '0.0.0-test' });
    const missing = join(tmp, 'no-such-folder');
    const notFound = core.openWorkspace(missing);
    expect(notFound).toMatchObject({ ok: false, error: { code: 'workspace_not_found' } });
    expect(notFound.ok ? '' : notFound.error.message).toContain(missing);
    expect(notFound.ok ? '' : notFound.error.message).toContain('does not exist');

    const file = join(tmp, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const aFile = await dispatchRequest(core.handlers, 'workspace.open', { path: file });
    expect(aFile).toMatchObject({ ok: false, error: { code: 'workspace_not_found' } });
    expect(aFile.ok ? '' : aFile.error.message).toContain('is a file, not a folder');

    // Nothing was opened, and nothing was written for either.
    expect(core.currentSession).toBeNull();
    expect(existsSync(join(dataDir, 'sessions'))).toBe(false);
    expect(await dispatchRequest(core.handlers, 'plan.edit', { baseVersion: 0, items: [] })).toMatchObject({
      ok: false,
      error: { code: 'no_workspace' },
    });
  });

  it('keeps the open session when opening another folder fails', () => {
    const { core, session } = start();
    expect(core.openWorkspace(join(tmp, 'gone')).ok).toBe(false);
    expect(core.currentSession).toBe(session);
  });

  it('opens the same session through a symlink', () => {
    const link = join(tmp, 'link-to-project');
    symlinkSync(folder, link, 'dir');
    const direct = start(folder);
    const throughLink = start(link);
    expect(throughLink.session.id).toBe(direct.session.id);
    expect(throughLink.session.workspace).toBe(direct.session.workspace);
    expect(throughLink.session.transcriptPath).toBe(direct.session.transcriptPath);
    expect(start(`${folder}/`).session.id).toBe(direct.session.id);
  });

  it('gives two folders two sessions', () => {
    const other = join(tmp, 'other-project');
    mkdirSync(other);
    const a = start(folder);
    const b = start(other);
    expect(b.session.id).not.toBe(a.session.id);
    expect(dirname(b.session.transcriptPath)).not.toBe(dirname(a.session.transcriptPath));
    expect(b.session.workspace).not.toBe(a.session.workspace);
  });

  it('creates the transcript with mode 0600 in a folder of mode 0700', () => {
    const { session } = start();
    expect(statSync(session.transcriptPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(session.transcriptPath)).mode & 0o777).toBe(0o700);
  });
});
