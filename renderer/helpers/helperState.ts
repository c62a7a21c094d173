import type { AgentEvent } from '../../common/agentEvents';
import type { HelperInfo, HelperIsolation } from '../../common/helpers';
import { isHelperEnded, type HelperState } from '../../common/helperStates';

/*
 * The board's view of the open session's helpers, as pure functions over immutable records:
 * `helper.list` replaces them, `helper.changed` (a whole HelperInfo) replaces one, and the last
 * `helper.event` of each says what it does between two `helper.changed`. No I/O here.
 */

/** What the board says a helper is doing now; `tool` while it runs or waits to run one. */
export interface HelperLive {
  state: HelperState;
  tool?: string;
}

/** One helper as the board draws it. Unchanged helpers keep the same object (rows are memoized). */
export interface HelperView {
  info: HelperInfo;
  live: HelperLive;
  /** Its last agent event, if one came after its last HelperInfo. */
  lastEvent?: AgentEvent;
}

interface HelperRecord {
  info: HelperInfo;
  /** Arrival order of the info and of the last event: whichever came later says the live state. */
  infoSeq: number;
  event?: AgentEvent;
  eventSeq: number;
  /** The tool of its last tool call or approval: a `state: running_tool` event does not name it. */
  tool?: string;
  view: HelperView;
}

export interface HelperRecords {
  /** Oldest first, as `helper.list` orders them; new helpers are appended. */
  readonly order: readonly string[];
  readonly byId: ReadonlyMap<string, HelperRecord>;
  /** Counts arrivals, so an event and an info can be told apart in time. */
  readonly seq: number;
}

export const noHelpers: HelperRecords = { order: [], byId: new Map(), seq: 0 };

/** The live state: the info's, unless an event of the running loop came after it. */
export function liveStateOf(info: HelperInfo, event: AgentEvent | undefined, eventIsNewer: boolean, tool: string | undefined): HelperLive {
  const fromInfo: HelperLive = info.tool !== undefined ? { state: info.state, tool: info.tool } : { state: info.state };
  // Only the engine knows when a helper starts, merges or ends: events never override those.
  if (!event || !eventIsNewer || isHelperEnded(info.state) || info.state === 'starting' || info.state === 'merging') return fromInfo;
  const withTool = (state: HelperState, name: string | undefined): HelperLive => (name !== undefined ? { state, tool: name } : { state });
  switch (event.type) {
    case 'state':
      if (event.state === 'thinking') return { state: 'thinking' };
      if (event.state === 'running_tool') return withTool('tool', tool);
      if (event.state === 'waiting_approval') return withTool('waiting_approval', tool);
      return fromInfo;
    case 'tool_call':
      return { state: 'tool', tool: event.name };
    case 'approval_requested':
      return { state: 'waiting_approval', tool: event.request.tool };
    case 'approval_resolved':
      return withTool('tool', tool);
    case 'text':
    case 'thinking':
    case 'tool_result':
      return { state: 'thinking' };
    default:
      return fromInfo;
  }
}

function record(info: HelperInfo, infoSeq: number, event: AgentEvent | undefined, eventSeq: number, tool: string | undefined): HelperRecord {
  const newer = eventSeq > infoSeq;
  const view: HelperView = { info, live: liveStateOf(info, event, newer, tool), ...(event && newer ? { lastEvent: event } : {}) };
  return { info, infoSeq, eventSeq, view, ...(event ? { event } : {}), ...(tool !== undefined ? { tool } : {}) };
}

/** `helper.list`'s answer: it is newer than everything that came before it on the same link. */
export function applyHelperList(records: HelperRecords, helpers: readonly HelperInfo[]): HelperRecords {
  const seq = records.seq + 1;
  const byId = new Map<string, HelperRecord>();
  for (const info of helpers) {
    const old = records.byId.get(info.id);
    byId.set(info.id, old && old.info === info ? old : record(info, seq, old?.event, old?.eventSeq ?? 0, old?.tool));
  }
  return { order: helpers.map((info) => info.id), byId, seq };
}

/** One `helper.changed`: the helper whole, replacing what the board had of it. */
export function applyHelperChanged(records: HelperRecords, info: HelperInfo): HelperRecords {
  const seq = records.seq + 1;
  const old = records.byId.get(info.id);
  const byId = new Map(records.byId).set(info.id, record(info, seq, old?.event, old?.eventSeq ?? 0, old?.tool));
  return { order: old ? records.order : [...records.order, info.id], byId, seq };
}

/** One `helper.event`: kept as the helper's last, for its live state. Unknown helpers wait for their info. */
export function applyHelperEvent(records: HelperRecords, helper: string, event: AgentEvent): HelperRecords {
  const old = records.byId.get(helper);
  if (!old) return records;
  // Output, usage and streamed tokens of a thinking helper change nothing the board shows.
  if (event.type === 'tool_output' || event.type === 'usage' || event.type === 'context') return records;
  if ((event.type === 'text' || event.type === 'thinking') && old.view.live.state === 'thinking') return records;
  const seq = records.seq + 1;
  const tool = event.type === 'tool_call' ? event.name : event.type === 'approval_requested' ? event.request.tool : old.tool;
  const next = record(old.info, old.infoSeq, event, seq, tool);
  // Same words on the board: keep the same view, so nothing renders again.
  const sameLive = next.view.live.state === old.view.live.state && next.view.live.tool === old.view.live.tool;
  const kept = sameLive ? { ...next, view: old.view } : next;
  return { ...records, byId: new Map(records.byId).set(helper, kept), seq };
}

/** Every helper, oldest first. */
export function helperViews(records: HelperRecords): HelperView[] {
  return records.order.flatMap((id) => {
    const found = records.byId.get(id);
    return found ? [found.view] : [];
  });
}

/**
 * The helper the board shows under each main-plan step: the latest one that worked it (a step
 * whose helper failed may be delegated again).
 */
export function helpersByItem(views: readonly HelperView[]): ReadonlyMap<string, HelperView> {
  const byItem = new Map<string, HelperView>();
  for (const view of views) byItem.set(view.info.item, view);
  return byItem;
}

/** Why helpers run one at a time here, when some helper says so (the board says it once). */
export function isolationOf(views: readonly HelperView[]): HelperIsolation | null {
  if (views.length === 0) return null;
  return views.some((view) => view.info.isolation === 'in_place_not_git') ? 'in_place_not_git' : 'worktree';
}
