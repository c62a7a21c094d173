import { renderOverridesForModel } from '../../common/plan/overrides';
import { renderPlan } from '../../common/plan/render';
import { staleRewriteText } from '../../common/plan/rules';
import type { PlanStore } from './store';

export interface ToolOutcome {
  content: string;
  isError: boolean;
}

/**
 * The `todo` tool's handler. `agentSeenVersion` is the newest plan version the model has been
 * shown (by its own call, a tool result or a <plan-update> block). A call made while a newer user
 * version is unseen is refused, so a person's correction is never overwritten by a model that did
 * not see it; the refusal itself shows the change, so the next call may go through.
 */
export function runTodoTool(store: PlanStore, input: unknown, agentSeenVersion: number): ToolOutcome & { seenVersion: number } {
  const unseenUserEdits = store.userEditsSince(agentSeenVersion);
  if (unseenUserEdits) {
    return {
      content: staleRewriteText(unseenUserEdits, store.items),
      isError: true,
      seenVersion: store.version,
    };
  }
  const items = typeof input === 'object' && input !== null ? (input as { items?: unknown }).items : undefined;
  const result = store.propose(items, { source: 'agent' });
  if (!result.ok) {
    // A conflict cannot happen without baseVersion; only the validator can refuse here.
    const message = result.reason === 'invalid' ? result.error.message : 'Plan not changed.';
    return { content: `${message}\n\nThe plan is still:\n${renderPlan(store.items)}`, isError: true, seenVersion: store.version };
  }
  const undone = renderOverridesForModel(result.version.overrides ?? []);
  const plan = renderPlan(result.version.items);
  return { content: undone ? `${plan}\n\n${undone}` : plan, isError: false, seenVersion: result.version.version };
}
