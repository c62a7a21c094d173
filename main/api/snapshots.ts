import type { PlanSnapshot, WorkspaceInfo } from '../../common/contract';
import type { PlanStore } from '../plan/store';
import type { WorkspaceSession } from '../session/workspaceSession';

/* What the contract sends of the plan and the open folder; the core and its handlers both build them. */

const emptySnapshot: PlanSnapshot = { version: 0, source: null, items: [], at: null };

export function snapshot(plan: PlanStore | undefined): PlanSnapshot {
  const current = plan?.current;
  if (!current) return emptySnapshot;
  const base = { version: current.version, source: current.source, items: current.items, at: current.at };
  return current.overrides ? { ...base, overrides: current.overrides } : base;
}

export function workspaceInfo(session: WorkspaceSession): WorkspaceInfo {
  return { path: session.workspace, name: session.name, sessionId: session.id };
}
