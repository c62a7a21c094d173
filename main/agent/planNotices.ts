import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { renderOverrides } from '../../common/plan/overrides';
import type { PlanView } from '../plan/planView';
import type { PlanStore } from '../plan/store';
import type { Notify } from './notice';
import { takeReminder, takeUserPlanUpdate } from './planMessages';

/** Adds the `<plan-update source="user">` block when the person edited the plan since the model last saw it. */
export function addUserPlanUpdate(view: PlanView, pending: ContentBlockParam[], notice: Notify): void {
  const { plan } = view;
  const seen = view.seenVersion;
  const update = takeUserPlanUpdate(view);
  if (!update) return;
  pending.push(update);
  // The window shows the person's edit as a diff in its own language, not the model's wire text.
  notice('plan_update', update.text, { plan: { before: plan.getVersion(seen)?.items ?? [], after: plan.items } });
}

/** The person is told, in the chat, where the agent's accepted plan undid their last edit. */
export function noticeOverrides(plan: PlanStore, versionBefore: number, notice: Notify): void {
  const current = plan.current;
  if (!current || current.version === versionBefore || current.source !== 'agent' || !current.overrides) return;
  notice('plan_override', renderOverrides(current.overrides), { overrides: current.overrides });
}

/**
 * After a round of tool calls: the person's edit first (being shown it is a plan update, so it may
 * make the reminder moot), then the reminder when it is due; the person is told of both.
 */
export function addRoundPlanUpdates(view: PlanView, pending: ContentBlockParam[], threshold: number, notice: Notify): void {
  addUserPlanUpdate(view, pending, notice);
  const reminder = takeReminder(view, threshold);
  if (!reminder) return;
  pending.push(reminder);
  notice('reminder', reminder.text);
}
