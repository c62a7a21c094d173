import { relative } from 'node:path';
import type { AgentEvent } from '../../common/agentEvents';
import { ErrorCodes, type PlanConflictDetails, type PlanInvalidDetails, type RequestInput, type RequestOutput } from '../../common/contract';
import { helperOwnerName, isHelperEnded, type HelperInfo } from '../../common/helpers';
import { MAIN_OWNER } from '../../common/plan/types';
import { fail, ok, type Result } from '../../common/result';
import type { Agent } from '../agent/agent';
import type { HelperControl } from '../api/handlers/helperHandlers';
import type { ChangeRecorder } from '../changes/recorder';
import { WorkspaceSession } from '../session/workspaceSession';
import type { HelperSettings } from '../settings/helperSettings';
import type { ToolResult } from '../tools/types';
import { checkDelegate, refusalText } from './delegateChecks';
import type { DelegateInput } from './delegateTool';
import { finalAnswer, Helper, planOf } from './helper';
import { delegateResultText, helperFirstMessage } from './helperTexts';
import { moveStep } from './mainPlanSteps';
import { HelperMerges } from './helperMerges';
import type { MergeStrategy, Worktrees } from './worktrees';

export interface HelperPoolOptions {
  /** The main agent's session: its plan holds the steps helpers work. */
  session: WorkspaceSession;
  /** Git worktrees for the folder, or null when it is not a git repository (asked once, at the first delegate). */
  worktrees: () => Promise<Worktrees | null>;
  settings: () => HelperSettings;
  /** The main task's change records: a helper in the folder itself changes files as part of it. */
  changes?: ChangeRecorder;
  /**
   * A helper's agent on its own session (the core builds it as it builds the main agent). `place`:
   * its worktree is still being checked out; its tools wait for `ready`, and the workspace's
   * instruction files are read from `instructionsFolder` (the folder the worktree copies).
   */
  createAgent(session: WorkspaceSession, helperId: string, changes: ChangeRecorder | undefined, inPlace: boolean, place?: HelperPlace): Agent;
  changed(info: HelperInfo): void;
  event(helper: string, event: AgentEvent): void;
  log?: (message: string) => void;
}

/** Where a helper in a worktree works while its checkout is under way (see HelperPoolOptions.createAgent). */
export interface HelperPlace {
  ready: Promise<unknown>;
  instructionsFolder: string;
}

/**
 * The open session's helpers: starts one per `delegate` call, runs them side by side (each in its
 * worktree) or one at a time in the folder outside git, merges their changes in the graph's order
 * and moves their steps of the main plan. What the board's helper channels steer (HelperControl).
 */
export class HelperPool implements HelperControl {
  private readonly helpers = new Map<string, Helper>();
  private readonly merges: HelperMerges;
  private worktreesOnce: Promise<Worktrees | null> | null = null;
  /** Outside git, helpers take turns in the folder. */
  private inPlaceTurn: Promise<void> = Promise.resolve();

  /** Helpers of earlier runs of this session, as its transcript last recorded them. */
  private readonly restored: HelperInfo[];
  /** Restored helpers whose worktree was kept for the person and is still there: open, merge and discard apply. */
  private readonly revived = new Map<string, Helper>();
  /** Settles once the restored helpers' kept worktrees have been looked for. */
  private readonly revival: Promise<void>;
  /** The session closed (another opened, or it was deleted): its transcript is no longer written. */
  private disposed = false;

  constructor(private readonly options: HelperPoolOptions) {
    this.merges = new HelperMerges(options.session.plan, (id) => this.helpers.get(id), { workspace: options.session.workspace, changes: options.changes });
    this.restored = options.session.restoredHelpers;
    // A step whose helper was working when Keel stopped is the main agent's again.
    for (const info of this.restored) {
      const step = options.session.plan.items.find((item) => item.id === info.item);
      if (step?.owner === info.id && step.status === 'in_progress') moveStep(options.session.plan, step.id, 'pending', null);
    }
    // Asked now, so what a crashed Keel left of this folder's worktrees is swept at open (kept ones stay).
    this.revival = this.revive().catch((error: unknown) => this.options.log?.(`warning: kept helper worktrees not restored: ${(error as Error).message}`));
  }

  list(): HelperInfo[] {
    const restored = this.restored.map((info) => this.revived.get(info.id)?.info ?? info);
    return [...restored, ...[...this.helpers.values()].map((helper) => helper.info)];
  }

  /**
   * A restored helper whose worktree was kept gets it back, so the board's open, merge and discard
   * work after a restart; one whose worktree is gone is no longer offered, and its step is the main
   * agent's again.
   */
  private async revive(): Promise<void> {
    const worktrees = await this.worktrees();
    const kept = this.restored.filter((info) => info.worktreeKept);
    if (kept.length === 0) return;
    const session = this.options.session;
    const found = worktrees ? await worktrees.kept(session.id).catch(() => []) : [];
    // A session deleted meanwhile must not be written again (its transcript is in the trash).
    if (this.disposed) return;
    for (const info of kept) {
      const worktree = found.find((wt) => wt.helperId === info.id);
      const step = session.plan.items.find((item) => item.id === info.item);
      if (!worktree) {
        const gone: HelperInfo = { ...info, worktreeKept: false };
        this.restored[this.restored.indexOf(info)] = gone;
        if (step?.owner === info.id && step.status !== 'completed') moveStep(session.plan, step.id, 'pending', null);
        this.options.changed(gone);
        this.record(gone);
        continue;
      }
      const helper = new Helper(step ?? { id: info.item, content: info.content, status: 'pending' }, info.id, info.instructions, info.isolation, 0);
      helper.update(info);
      helper.worktree = worktree;
      helper.settleMerge();
      helper.onChanged((changed) => {
        this.options.changed(changed);
        this.record(changed);
      });
      this.revived.set(info.id, helper);
    }
  }

  /** The delegate tool's call: refused at once, or the helper's result when it has ended. */
  async delegate(input: DelegateInput, signal: AbortSignal): Promise<ToolResult> {
    const plan = this.options.session.plan;
    const settings = this.options.settings();
    const running = this.list().filter((info) => !isHelperEnded(info.state)).length;
    const holders = new Set(
      this.list()
        .filter((info) => !isHelperEnded(info.state) || info.worktreeKept)
        .map((info) => info.id),
    );
    const check = checkDelegate(plan.items, input.item, { holders, running, max: settings.max });
    if (!check.ok) return { isError: true, content: refusalText(check.code, check.message) };
    const step = check.item;
    // Registered before anything is awaited: a second delegate of the same answer counts this one.
    const id = helperOwnerName(this.restored.length + this.helpers.size + 1);
    const refused = moveStep(plan, step.id, 'in_progress', id);
    if (refused) return { isError: true, content: refusalText('item_blocked', refused) };
    const helper = new Helper(step, id, input.instructions, 'worktree', settings.stallSeconds);
    this.helpers.set(id, helper);
    const onAbort = () => helper.stop('main_stopped');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const worktrees = await this.worktrees();
      if (!worktrees) helper.update({ isolation: 'in_place_not_git' });
      helper.onChanged((info) => {
        this.options.changed(info);
        this.record(info);
      });
      helper.onEvent((event) => this.options.event(id, event));
      this.options.changed(helper.info);
      this.record(helper.info);
      await this.work(helper, worktrees, plan.items);
      await this.finish(helper, worktrees);
    } catch (error) {
      this.options.log?.(`warning: ${id} failed: ${(error as Error).message}`);
      helper.update({ state: 'failed', ...Helper.reasonOf('internal', (error as Error).message), endedAt: new Date().toISOString() });
      helper.settleMerge();
      moveStep(plan, step.id, 'pending', null);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const now = plan.items.find((item) => item.id === helper.info.item);
    return { isError: helper.info.state !== 'done', content: delegateResultText(helper.info, now) };
  }

  private readonly recorded = new Map<string, string>();

  /** Kept in the session's transcript as it starts and each time its end or merge changes, not every step. */
  private record(info: HelperInfo): void {
    if (info.state !== 'starting' && !isHelperEnded(info.state)) return;
    const key = `${info.state} ${info.merge} ${info.worktreeKept}`;
    if (this.recorded.get(info.id) === key) return;
    this.recorded.set(info.id, key);
    this.options.session.recordHelper(info);
  }

  private worktrees(): Promise<Worktrees | null> {
    this.worktreesOnce ??= this.options.worktrees().catch(() => null);
    return this.worktreesOnce;
  }

  /**
   * Gives the helper its place, then runs its agent there until it ends. Its worktree is checked
   * out while its first request is already out (a checkout of a large repository takes seconds);
   * its tools wait for it.
   */
  private async work(helper: Helper, worktrees: Worktrees | null, plan: readonly HelperInfo['plan'][number][]): Promise<void> {
    const main = this.options.session;
    let release = () => {};
    let path = main.workspace;
    let ready: Promise<void> | null = null;
    const touched = new Set<string>();
    if (worktrees) {
      const pending = await worktrees.begin(helper.id);
      path = pending.path;
      ready = pending.ready.then((worktree) => {
        helper.worktree = worktree;
      });
      // Without its folder the helper cannot work: its loop ends, and the delegate call fails with why.
      ready.catch(() => helper.stop('internal'));
    } else {
      const turn = this.inPlaceTurn;
      this.inPlaceTurn = new Promise((resolve) => (release = resolve));
      await turn;
    }
    try {
      const session = WorkspaceSession.forHelper(main, helper.id, path);
      // Outside git nothing else can tell which files it changed: its file tools say so.
      const changes: ChangeRecorder | undefined = worktrees
        ? undefined
        : {
            taskStarted: () => {},
            beforeFileChange: (file) => {
              touched.add(relative(path, file));
              this.options.changes?.beforeFileChange(file);
            },
            afterToolCall: async () => this.options.changes?.afterToolCall(),
            taskEnded: () => {},
          };
      const agent = this.options.createAgent(session, helper.id, changes, !worktrees, ready ? { ready, instructionsFolder: main.workspace } : undefined);
      const message = helperFirstMessage(helper.id, helper.step, plan, helper.info.instructions, !worktrees);
      const result = await helper.run(session, agent, message);
      // Its changes are read from its worktree: one that ended before the checkout did waits for it (or fails with it).
      if (ready) await ready;
      const answer = finalAnswer(session);
      const stopped = helper.stopRequested;
      const changedFiles = worktrees && helper.worktree ? await worktrees.changedFiles(helper.worktree) : [...touched].sort();
      const ended = new Date().toISOString();
      // A stall is a failure (it hung); a stop is someone's choice.
      if (stopped)
        helper.update({
          state: stopped === 'stalled' ? 'failed' : 'stopped',
          ...Helper.reasonOf(stopped, helper.stalledDetail),
          answer,
          changedFiles,
          endedAt: ended,
        });
      else if (!result || result.outcome === 'error' || result.outcome === 'refused')
        helper.update({
          state: 'failed',
          ...Helper.reasonOf(result?.errorCode === 'internal' ? 'internal' : 'model_error', result?.message),
          answer,
          changedFiles,
          endedAt: ended,
        });
      else helper.update({ answer, changedFiles, ...planOf(session, helper.id), endedAt: ended });
    } finally {
      release();
    }
  }

  /** After the helper's loop: its changes merged in the graph's order (or kept), its main step moved. */
  private async finish(helper: Helper, worktrees: Worktrees | null): Promise<void> {
    const plan = this.options.session.plan;
    const ran = helper.info.state !== 'failed' && helper.info.state !== 'stopped';
    if (!worktrees || !helper.worktree) {
      helper.update({ merge: 'in_place', ...(ran ? { state: 'done' } : {}) });
      helper.settleMerge();
    } else if (!ran) {
      // Its half-done work waits in its worktree for the person; a helper that changed nothing leaves none.
      if (helper.info.changedFiles.length === 0) {
        await worktrees.remove(helper.worktree);
        helper.update({ merge: 'nothing', worktreeKept: false });
      } else helper.update({ merge: 'kept', worktreeKept: true });
      helper.settleMerge();
    } else await this.merges.mergeInOrder(helper, worktrees, 'three_way');
    if (worktrees && helper.worktree && helper.info.worktreeKept) await this.keep(helper, worktrees);
    const info = helper.info;
    const completed = info.state === 'done';
    moveStep(plan, info.item, completed ? 'completed' : 'pending', completed || info.worktreeKept ? info.id : null);
  }

  /** Its worktree outlives Keel for the person (sweep leaves it; a reopened session finds it again). */
  private async keep(helper: Helper, worktrees: Worktrees): Promise<void> {
    await worktrees.keep(helper.worktree!, this.options.session.id).catch((error: unknown) => {
      this.options.log?.(`warning: ${helper.id}'s worktree may not survive a restart: ${(error as Error).message}`);
    });
  }

  stop(id: string): Result<{ stopped: boolean }> {
    const helper = this.helpers.get(id);
    if (!helper) return this.restored.some((info) => info.id === id) ? ok({ stopped: false }) : notFound(id);
    return ok({ stopped: helper.stop('stopped_by_person') });
  }

  /** The person's edit of one helper's own plan: the same validator as plan.edit, told to that helper only. */
  editPlan(id: string, baseVersion: number, items: RequestInput<'helper.editPlan'>['items']): Result<HelperInfo> {
    const helper = this.helpers.get(id);
    if (!helper) return this.restored.some((info) => info.id === id) ? ended(id) : notFound(id);
    const session = helper.session;
    if (!session || isHelperEnded(helper.info.state)) return ended(id);
    // The board shows the helper's steps owned by it; in its own store they are its (main) steps.
    const own = items.map((item) => (item.owner === id ? { ...item, owner: MAIN_OWNER } : item));
    const result = session.plan.propose(own, { source: 'user', baseVersion });
    if (result.ok) return ok(helper.info);
    if (result.reason === 'conflict')
      return fail(
        ErrorCodes.planConflict,
        `${id}'s plan changed while you were editing it (you edited version ${baseVersion}, it is now version ${session.plan.version}). Your edit was not applied.`,
        {
          current: {
            version: session.plan.version,
            source: session.plan.current?.source ?? null,
            items: helper.info.plan,
            at: session.plan.current?.at ?? null,
          },
        } satisfies PlanConflictDetails,
      );
    return fail(ErrorCodes.planInvalid, result.error.message, { problems: result.error.problems } satisfies PlanInvalidDetails);
  }

  async openVersion(id: string): Promise<Result<RequestOutput<'helper.openVersion'>>> {
    const kept = await this.kept(id);
    if (!kept.ok) return kept;
    return ok(await kept.value.worktrees.version(kept.value.helper.worktree!));
  }

  async merge(id: string, strategy: MergeStrategy): Promise<Result<HelperInfo>> {
    const kept = await this.kept(id);
    if (!kept.ok) return kept;
    const { helper, worktrees } = kept.value;
    await this.merges.mergeNow(helper, worktrees, strategy);
    const info = helper.info;
    if (info.merge === 'merged' || info.merge === 'nothing') moveStep(this.options.session.plan, info.item, 'completed', info.id);
    return ok(info);
  }

  async discard(id: string): Promise<Result<HelperInfo>> {
    const kept = await this.kept(id);
    if (!kept.ok) return kept;
    const { helper, worktrees } = kept.value;
    await worktrees.remove(helper.worktree!);
    helper.update({ merge: 'discarded', worktreeKept: false });
    moveStep(this.options.session.plan, helper.info.item, 'pending', null);
    return ok(helper.info);
  }

  /** Stops every helper (the session closes) and waits for none: their delegate calls end on their own. */
  stopAll(): void {
    for (const helper of this.helpers.values()) helper.stop('main_stopped');
  }

  /** The session closes: the helpers are stopped by the main task's end; removed worktrees finish deleting. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopAll();
    await (await this.worktreesOnce)?.dispose();
  }

  private async kept(id: string): Promise<Result<{ helper: Helper; worktrees: Worktrees }>> {
    await this.revival;
    const helper = this.helpers.get(id) ?? this.revived.get(id);
    if (!helper && !this.restored.some((info) => info.id === id)) return notFound(id);
    const worktrees = await this.worktrees();
    if (!worktrees || !helper?.worktree || !helper.info.worktreeKept)
      return fail(ErrorCodes.helperNoWorktree, `${id} has no kept worktree: nothing to open, merge or discard.`);
    return ok({ helper, worktrees });
  }
}

const notFound = (id: string) => fail(ErrorCodes.helperNotFound, `No helper "${id}" in this session.`);
const ended = (id: string) => fail(ErrorCodes.helperEnded, `${id} is not working: its plan can no longer change.`);
