import { hasDependencies, ownerOf, readyItems } from './graph';
import { MAIN_OWNER, type PlanItem } from './types';

const MARKERS = { pending: '[ ]', in_progress: '[>]', completed: '[x]' } as const;

/**
 * The plan as the model reads it back after every `todo` call (docs/plan-rules.md, "Full-list
 * rewrite"): each item with its `#id`, and, once items wait for others, what is ready to start.
 */
export function renderPlan(items: readonly PlanItem[]): string {
  if (items.length === 0) return '(The plan is empty.)';
  const lines = items.map((item) => `${MARKERS[item.status]} ${renderItem(item, items)}`);
  return `${lines.join('\n')}\n\n(${progressLine(items)})`;
}

/**
 * One item after its marker: `#tests Write the tests (blocked by #parse)`. In parentheses: the
 * phrase while in progress, an owner other than the main agent, the unfinished items it waits for
 * ("blocked by") and the completed ones ("after").
 */
export function renderItem(item: PlanItem, items: readonly PlanItem[]): string {
  const notes: string[] = [];
  if (item.status === 'in_progress' && item.activeForm) notes.push(item.activeForm);
  if (ownerOf(item) !== MAIN_OWNER) notes.push(`owner: ${ownerOf(item)}`);
  const blockedBy = item.blockedBy ?? [];
  const done = (id: string) => items.some((other) => other.id === id && other.status === 'completed');
  const open = blockedBy.filter((id) => !done(id));
  const after = blockedBy.filter(done);
  if (open.length > 0) notes.push(`blocked by ${ids(open)}`);
  if (after.length > 0) notes.push(`after ${ids(after)}`);
  return `#${item.id} ${item.content}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** "1/4 completed", and, in a plan whose items wait for others, which may start now. */
function progressLine(items: readonly PlanItem[]): string {
  const { completed, total } = planProgress(items);
  const progress = `${completed}/${total} completed`;
  if (!hasDependencies(items)) return progress;
  const ready = readyItems(items);
  return ready.length > 0 ? `${progress}; ready to start: ${ids(ready.map((item) => item.id))}` : progress;
}

function ids(list: readonly string[]): string {
  return list.map((id) => `#${id}`).join(', ');
}

export function planProgress(items: readonly PlanItem[]): { completed: number; total: number } {
  return { completed: items.filter((item) => item.status === 'completed').length, total: items.length };
}

export function unfinishedItems(items: readonly PlanItem[]): PlanItem[] {
  return items.filter((item) => item.status !== 'completed');
}
