import { describe, expect, it } from 'vitest';
import type { EventChannel, EventPayload, KeelApi, PlanSnapshot, RequestChannel, RequestInput, RequestOutput, WorkspaceInfo } from '../../../common/contract';
import { Emitter } from '../../../common/emitter';
import { ok, type Result } from '../../../common/result';
import { OpenPlan } from '../../../renderer/plan/openPlan';

/*
 * The open session's plan that the status bar's first `plan.get` brings and the board draws at
 * its first render: it is the board's session's only when the window knows main had that session
 * open when it answered, and a plan heard about another session is never drawn on this one's board.
 */

const folder = (sessionId: string): WorkspaceInfo => ({ path: `/work/${sessionId}`, name: sessionId, sessionId });
const plan = (version: number, content = `step of v${version}`): PlanSnapshot => ({
  version,
  source: 'agent',
  items: [{ id: `i${version}`, content, status: 'pending' }],
  at: '2026-12-04T02:00:00.000Z',
});

/** main's session and plan channels, each request answered when the test says so. */
class MainStandIn {
  readonly workspaceChanged = new Emitter<[WorkspaceInfo | null]>();
  readonly planChanged = new Emitter<[PlanSnapshot]>();
  readonly asked: { channel: string; answer: () => void }[] = [];
  session: WorkspaceInfo | null = folder('s1');
  stored: PlanSnapshot = plan(3);

  api(): KeelApi {
    const on = <E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): (() => void) => {
      if (channel === 'workspace.changed') return this.workspaceChanged.on(listener as (next: WorkspaceInfo | null) => void);
      if (channel === 'plan.changed') return this.planChanged.on(listener as (next: PlanSnapshot) => void);
      return () => undefined;
    };
    const request = <C extends RequestChannel>(channel: C, _input: RequestInput<C>): Promise<Result<RequestOutput<C>>> =>
      new Promise((resolve) => {
        // Answered with main's state when the answer is sent, as main does.
        const answer = () => resolve(ok(channel === 'workspace.current' ? this.session : this.stored) as Result<RequestOutput<C>>);
        this.asked.push({ channel, answer });
      });
    return { on, request, terminalOutput: { on: () => () => undefined, ack: () => undefined } } as KeelApi;
  }

  /** Answers every request asked so far, in order. */
  async answerAll(): Promise<void> {
    for (const request of this.asked.splice(0)) request.answer();
    await new Promise((resolve) => setTimeout(resolve));
  }
}

describe('the open session’s plan', () => {
  it('asked before the window knows the session, is drawn for that session once main says which it is', async () => {
    const main = new MainStandIn();
    const open = new OpenPlan(main.api());
    const first = open.request();
    expect(main.asked.map((request) => request.channel)).toEqual(['workspace.current', 'plan.get']);
    expect(open.peek('s1')).toBeNull();
    await main.answerAll();
    expect((await first).ok).toBe(true);
    expect(open.peek('s1')?.version).toBe(3);
    expect(open.peek('s2')).toBeNull();
  });

  it('shares the answer on its way instead of asking again, and asks anew once it is in', async () => {
    const main = new MainStandIn();
    const open = new OpenPlan(main.api());
    const first = open.request();
    expect(open.request()).toBe(first);
    expect(main.asked.filter((request) => request.channel === 'plan.get')).toHaveLength(1);
    await main.answerAll();
    void open.request();
    expect(main.asked.map((request) => request.channel)).toEqual(['plan.get']);
  });

  it('keeps the newest version it heard, from an answer or from plan.changed', async () => {
    const main = new MainStandIn();
    const open = new OpenPlan(main.api());
    void open.request();
    main.planChanged.fire(plan(4));
    await main.answerAll();
    expect(open.peek('s1')?.version).toBe(4);
    main.planChanged.fire(plan(5, 'the agent’s next step'));
    expect(open.peek('s1')?.items[0]?.content).toBe('the agent’s next step');
  });

  it('forgets the plan when main opens another session, and drops an answer asked before the switch', async () => {
    const main = new MainStandIn();
    const open = new OpenPlan(main.api());
    void open.request();
    await main.answerAll();
    expect(open.peek('s1')?.version).toBe(3);
    // Asked in s1, answered after main switched to s2: it may be either session's plan.
    const asked = open.request();
    main.session = folder('s2');
    main.stored = plan(1, 'the other folder’s step');
    main.workspaceChanged.fire(folder('s2'));
    await main.answerAll();
    expect((await asked).ok).toBe(true);
    expect(open.peek('s1')).toBeNull();
    expect(open.peek('s2')).toBeNull();
    // Asked in s2: the new session's plan, even with a lower version than s1's.
    void open.request();
    await main.answerAll();
    expect(open.peek('s2')?.items[0]?.content).toBe('the other folder’s step');
  });
});
