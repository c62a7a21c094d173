import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { EventChannel, EventPayload, KeelApi, RequestChannel, RequestInput, RequestOutput } from '../../../common/contract';
import { Emitter } from '../../../common/emitter';
import type { HelperInfo } from '../../../common/helpers';
import { ok, type Result } from '../../../common/result';
import {
  applyHelperChanged,
  applyHelperEvent,
  applyHelperList,
  helpersByItem,
  helperViews,
  isolationOf,
  noHelpers,
  type HelperRecords,
} from '../../../renderer/helpers/helperState';
import { HelperStore } from '../../../renderer/helpers/helperStore';

/*
 * The board's helper store: what a reload loads, how each `helper.changed` and `helper.event`
 * changes what the person reads under a step (owner, live state, own plan), and that a helper the
 * person did not touch keeps its view (its row does not render again).
 */

function helper(id: string, item: string, change: Partial<HelperInfo> = {}): HelperInfo {
  return {
    id,
    item,
    content: `Step ${item}`,
    instructions: `Do ${item}`,
    state: 'thinking',
    plan: [],
    planVersion: 0,
    changedFiles: [],
    merge: 'pending',
    conflictFiles: [],
    worktreeKept: false,
    isolation: 'worktree',
    startedAt: '2026-12-03T15:00:00.000Z',
    ...change,
  };
}

const live = (records: HelperRecords, id: string) => records.byId.get(id)?.view.live;
const event = (records: HelperRecords, id: string, ...events: AgentEvent[]) => events.reduce((r, e) => applyHelperEvent(r, id, e), records);

describe('the helpers of the board', () => {
  it('loads the list oldest first and shows each under the step it works', () => {
    const records = applyHelperList(noHelpers, [helper('helper-1', 'a'), helper('helper-2', 'b')]);
    const views = helperViews(records);
    expect(views.map((view) => view.info.id)).toEqual(['helper-1', 'helper-2']);
    expect([...helpersByItem(views)].map(([item, view]) => [item, view.info.id])).toEqual([
      ['a', 'helper-1'],
      ['b', 'helper-2'],
    ]);
  });

  it('shows the latest helper of a step that was delegated again', () => {
    const records = applyHelperList(noHelpers, [helper('helper-1', 'a', { state: 'failed' }), helper('helper-2', 'a')]);
    expect(helpersByItem(helperViews(records)).get('a')?.info.id).toBe('helper-2');
  });

  it('replaces a helper whole on helper.changed and appends a new one', () => {
    let records = applyHelperList(noHelpers, [helper('helper-1', 'a')]);
    const plan = [{ id: 'x', content: 'Read the parser', status: 'in_progress' as const, owner: 'helper-1' }];
    records = applyHelperChanged(records, helper('helper-1', 'a', { plan, planVersion: 1 }));
    records = applyHelperChanged(records, helper('helper-2', 'b', { state: 'starting' }));
    const views = helperViews(records);
    expect(views.map((view) => [view.info.id, view.info.planVersion, view.live.state])).toEqual([
      ['helper-1', 1, 'thinking'],
      ['helper-2', 0, 'starting'],
    ]);
    expect(views[0]?.info.plan.map((item) => item.content)).toEqual(['Read the parser']);
  });

  it('says which tool a helper runs, and that it waits for approval, from its events', () => {
    let records = applyHelperList(noHelpers, [helper('helper-1', 'a')]);
    records = event(records, 'helper-1', { type: 'tool_call', id: 't1', name: 'bash', input: { command: 'npm test' } });
    expect(live(records, 'helper-1')).toEqual({ state: 'tool', tool: 'bash' });
    records = event(records, 'helper-1', { type: 'state', state: 'waiting_approval' });
    expect(live(records, 'helper-1')).toEqual({ state: 'waiting_approval', tool: 'bash' });
    records = event(records, 'helper-1', { type: 'approval_resolved', id: 'ap1', decision: 'allow_once' }, { type: 'state', state: 'running_tool' });
    expect(live(records, 'helper-1')).toEqual({ state: 'tool', tool: 'bash' });
    records = event(records, 'helper-1', { type: 'tool_result', id: 't1', name: 'bash', content: 'ok', isError: false });
    expect(live(records, 'helper-1')).toEqual({ state: 'thinking' });
  });

  it('lets a later helper.changed say the state, and never an event once a helper ended', () => {
    let records = applyHelperList(noHelpers, [helper('helper-1', 'a')]);
    records = event(records, 'helper-1', { type: 'tool_call', id: 't1', name: 'edit_file', input: {} });
    records = applyHelperChanged(records, helper('helper-1', 'a', { state: 'merging' }));
    expect(live(records, 'helper-1')).toEqual({ state: 'merging' });
    records = applyHelperChanged(records, helper('helper-1', 'a', { state: 'stopped', reason: 'Stopped by you.' }));
    records = event(records, 'helper-1', { type: 'state', state: 'thinking' });
    expect(live(records, 'helper-1')).toEqual({ state: 'stopped' });
  });

  it('keeps the same view for streamed tokens and for the helpers an event is not about', () => {
    let records = applyHelperList(noHelpers, [helper('helper-1', 'a'), helper('helper-2', 'b')]);
    const [one, two] = helperViews(records);
    records = event(records, 'helper-1', { type: 'text', delta: 'Reading' }, { type: 'text', delta: ' the code' });
    records = event(records, 'helper-2', { type: 'tool_call', id: 't2', name: 'read_file', input: {} });
    const [oneAfter, twoAfter] = helperViews(records);
    expect(oneAfter).toBe(one);
    expect(twoAfter).not.toBe(two);
    expect(twoAfter?.live).toEqual({ state: 'tool', tool: 'read_file' });
  });

  it('ignores the events of a helper it has not been told of yet', () => {
    const records = applyHelperList(noHelpers, []);
    expect(event(records, 'helper-9', { type: 'state', state: 'thinking' })).toBe(records);
  });

  it('says once that helpers run one at a time in a folder that is not a git repository', () => {
    expect(isolationOf([])).toBeNull();
    expect(isolationOf(helperViews(applyHelperList(noHelpers, [helper('helper-1', 'a')])))).toBe('worktree');
    expect(isolationOf(helperViews(applyHelperList(noHelpers, [helper('helper-1', 'a', { isolation: 'in_place_not_git' })])))).toBe('in_place_not_git');
  });
});

/** The two helper channels of main, and the requests the store makes, in memory. */
class MainStandIn {
  readonly changed = new Emitter<[HelperInfo]>();
  readonly events = new Emitter<[{ helper: string; event: AgentEvent }]>();
  readonly requests: { channel: string; input: unknown }[] = [];
  listAnswer: (() => void) | null = null;
  constructor(private readonly helpers: HelperInfo[]) {}

  api(): KeelApi {
    const on = <E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): (() => void) => {
      if (channel === 'helper.changed') return this.changed.on(listener as (info: HelperInfo) => void);
      if (channel === 'helper.event') return this.events.on(listener as (payload: { helper: string; event: AgentEvent }) => void);
      return () => undefined;
    };
    const request = <C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>> => {
      this.requests.push({ channel, input });
      if (channel === 'helper.list') {
        const list = this.helpers.map((info) => ({ ...info }));
        return new Promise((resolve) => (this.listAnswer = () => resolve(ok({ helpers: list }) as Result<RequestOutput<C>>)));
      }
      if (channel === 'helper.editPlan') {
        const { id, items } = input as RequestInput<'helper.editPlan'>;
        const old = this.helpers.find((info) => info.id === id)!;
        const plan = items.map((item, i) => ({ id: item.id ?? `n${i}`, content: item.content, status: 'pending' as const }));
        return Promise.resolve(ok({ ...old, plan, planVersion: old.planVersion + 1 }) as Result<RequestOutput<C>>);
      }
      return Promise.resolve(ok({ stopped: true }) as Result<RequestOutput<C>>);
    };
    return { on, request, terminalOutput: { on: () => () => undefined, ack: () => undefined } } as KeelApi;
  }
}

describe('the helper store', () => {
  it('is loaded once helper.list answers, and applies what main sends after that', async () => {
    const main = new MainStandIn([helper('helper-1', 'a'), helper('helper-2', 'b')]);
    const store = new HelperStore(main.api());
    const stop = store.start();
    expect(store.getSnapshot().loaded).toBe(false);
    main.listAnswer?.();
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getSnapshot().loaded).toBe(true);
    expect(store.getSnapshot().helpers.map((view) => view.info.id)).toEqual(['helper-1', 'helper-2']);

    main.events.fire({ helper: 'helper-2', event: { type: 'tool_call', id: 't', name: 'bash', input: {} } });
    main.changed.fire(helper('helper-1', 'a', { state: 'done', answer: 'Parser fixed.' }));
    expect(store.getSnapshot().helpers.map((view) => [view.live.state, view.live.tool ?? null])).toEqual([
      ['done', null],
      ['tool', 'bash'],
    ]);
    stop();
    main.changed.fire(helper('helper-1', 'a', { state: 'failed' }));
    expect(store.getSnapshot().helpers[0]?.live.state).toBe('done');
  });

  it('sends an edit of one helper’s plan against the version the person saw and shows the answer', async () => {
    const main = new MainStandIn([helper('helper-2', 'b', { plan: [{ id: 'p', content: 'Write tests', status: 'pending' }], planVersion: 3 })]);
    const store = new HelperStore(main.api());
    const stop = store.start();
    main.listAnswer?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const result = await store.editPlan('helper-2', 3, [{ id: 'p', content: 'Write the parser tests', status: 'pending' }]);
    expect(result.ok).toBe(true);
    expect(main.requests.at(-1)).toEqual({
      channel: 'helper.editPlan',
      input: { id: 'helper-2', baseVersion: 3, items: [{ id: 'p', content: 'Write the parser tests', status: 'pending' }] },
    });
    expect(store.getSnapshot().helpers[0]?.info.plan.map((item) => item.content)).toEqual(['Write the parser tests']);
    stop();
  });
});
