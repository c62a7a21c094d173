import type { PlanItem } from './types';

const MARKERS = { pending: '[ ]', in_progress: '[>]', completed: '[x]' } as const;

/** The plan as the model reads it back after every `todo` call (docs/plan-rules.md, "Full-list rewrite"). */
export function renderPlan(items: readonly PlanItem[]): string {
  if (items.length === 0) return '(The plan is empty.)';
  const lines = items.map((item) => {
    const line = `${MARKERS[item.status]} ${item.content}`;
    return item.status === 'in_progress' && item.activeForm ? `${line} (${item.activeForm})` : line;
  });
  const { completed, total } = planProgress(items);
  return `${lines.join('\n')}\n\n(${completed}/${total} completed)`;
}

export function planProgress(items: readonly PlanItem[]): { completed: number; total: number } {
  return { completed: items.filter((item) => item.status === 'completed').length, total: items.length };
}

export function unfinishedItems(items: readonly PlanItem[]): PlanItem[] {
  return items.filter((item) => item.status !== 'completed');
}
