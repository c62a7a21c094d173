import type { KeelApi, ProposedPlanItem, RequestOutput } from '../../common/contract';
import { DisposableStore, type Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import type { HelperInfo } from '../../common/helpers';
import type { Result } from '../../common/result';
import { applyHelperChanged, applyHelperEvent, applyHelperList, helperViews, noHelpers, type HelperRecords, type HelperView } from './helperState';

/** What the board shows of the helpers, as one immutable snapshot. */
export interface HelpersSnapshot {
  /** False until `helper.list` has answered. */
  readonly loaded: boolean;
  /** Oldest first. */
  readonly helpers: readonly HelperView[];
}

const initial: HelpersSnapshot = { loaded: false, helpers: [] };

/**
 * The open session's helpers, kept outside React: `helper.list` on start (a reload, a second
 * window), then every `helper.changed` and `helper.event` folded in with the pure functions of
 * helperState.ts. Requests the person makes answer with the helper whole, which is shown at once.
 */
export class HelperStore {
  private records: HelperRecords = noHelpers;
  private snapshot: HelpersSnapshot = initial;
  private readonly changes = new Emitter<[]>();

  constructor(
    private readonly api: KeelApi,
    /** The session whose helpers these are (a store is made per session). */
    readonly sessionId = '',
  ) {}

  subscribe = (listener: () => void): Disposable => this.changes.on(listener);

  getSnapshot = (): HelpersSnapshot => this.snapshot;

  /** Listens to main and loads the list; returns what stops it. */
  start(): Disposable {
    const subscriptions = new DisposableStore();
    let live = true;
    subscriptions.add(() => (live = false));
    subscriptions.add(this.api.on('helper.changed', (info) => this.set(applyHelperChanged(this.records, info))));
    subscriptions.add(this.api.on('helper.event', ({ helper, event }) => this.set(applyHelperEvent(this.records, helper, event))));
    void this.api.request('helper.list', {}).then((result) => {
      // Events that came before the answer were sent before it: the list already holds them.
      if (live) this.set(result.ok ? applyHelperList(this.records, result.value.helpers) : this.records, true);
    });
    return () => subscriptions.dispose();
  }

  private set(records: HelperRecords, loaded = this.snapshot.loaded): void {
    if (records === this.records && loaded === this.snapshot.loaded) return;
    this.records = records;
    this.snapshot = { loaded, helpers: helperViews(records) };
    this.changes.fire();
  }

  private shown(result: Result<HelperInfo>): Result<HelperInfo> {
    if (result.ok) this.set(applyHelperChanged(this.records, result.value));
    return result;
  }

  // ---- what the person does ----------------------------------------------------------------------

  /** Stops this helper alone. */
  stop(id: string): Promise<Result<{ stopped: boolean }>> {
    return this.api.request('helper.stop', { id });
  }

  /** The person's edit of the helper's own plan, against the version they saw. */
  async editPlan(id: string, baseVersion: number, items: ProposedPlanItem[]): Promise<Result<HelperInfo>> {
    return this.shown(await this.api.request('helper.editPlan', { id, baseVersion, items }));
  }

  openVersion(id: string): Promise<Result<RequestOutput<'helper.openVersion'>>> {
    return this.api.request('helper.openVersion', { id });
  }

  async merge(id: string, strategy: 'three_way' | 'theirs' | 'markers'): Promise<Result<HelperInfo>> {
    return this.shown(await this.api.request('helper.merge', { id, strategy }));
  }

  async discard(id: string): Promise<Result<HelperInfo>> {
    return this.shown(await this.api.request('helper.discard', { id }));
  }
}
