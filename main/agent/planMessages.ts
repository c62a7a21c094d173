import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { renderPlan, unfinishedItems } from '../../common/plan/render';
import { reminderDue, reminderText, userPlanUpdateText } from '../../common/plan/rules';
import type { PlanView } from '../plan/planView';

/**
 * The `<plan-update source="user">` block for the person's edits the model has not been shown,
 * or null. Showing it marks them seen, and counts as a plan update for the reminder.
 */
export function takeUserPlanUpdate(view: PlanView): TextBlockParam | null {
  const unseenUserEdits = view.unseenUserEdits();
  if (!unseenUserEdits) return null;
  const text = userPlanUpdateText(unseenUserEdits, view.plan.items);
  view.updated();
  return { type: 'text', text };
}

/**
 * The reminder block when it is due after a round of tool calls (never while waiting for the person).
 * Take the person's unseen edits first: this marks the plan seen, which would swallow them.
 */
export function takeReminder(view: PlanView, threshold: number): TextBlockParam | null {
  const { items } = view.plan;
  const due = reminderDue({ items, roundsSinceUpdate: view.roundsSinceUpdate, threshold, waitingForUser: false });
  if (!due) return null;
  view.markSeen();
  return { type: 'text', text: reminderText(items, view.roundsSinceUpdate) };
}

/**
 * The plan a new task starts from: a finished plan stays in the history, and the task starts with
 * an empty one; an unfinished one is noted in the task's first message (see earlierPlanNote).
 */
export function planAtTaskStart(view: PlanView): TextBlockParam[] {
  const { plan } = view;
  if (plan.items.length > 0 && unfinishedItems(plan.items).length === 0) {
    plan.propose([], { source: 'agent' });
    view.updated();
  }
  const earlier = earlierPlanNote(view);
  return earlier ? [earlier] : [];
}

/**
 * A new task told of an unfinished plan left by an earlier one: shown, but not binding. It does not
 * mark the plan seen: an edit the person made since still reaches the model as a `<plan-update>`.
 */
export function earlierPlanNote(view: PlanView): TextBlockParam | null {
  const items = view.plan.items;
  if (unfinishedItems(items).length === 0) return null;
  return {
    type: 'text',
    text:
      `<plan-status>An earlier task left this plan unfinished:\n${renderPlan(items)}\n` +
      `If this message continues that work, go on with it and keep the plan up to date. If it is about something else, answer it; replace the plan with the todo tool only if the new work needs a plan.</plan-status>`,
  };
}
