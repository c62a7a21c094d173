import type { PlanItem, PlanOverride, PlanVersion } from './types';

export type { PlanOverride };

const normalise = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Compares the person's edit (`before` → `edited`) with the agent's next plan (`next`).
 * Only what the person changed is looked at: a step both left alone is the agent's to change.
 */
export function findOverrides(before: readonly PlanItem[], edited: readonly PlanItem[], next: readonly PlanItem[]): PlanOverride[] {
  const beforeById = new Map(before.map((item) => [item.id, item]));
  const editedById = new Map(edited.map((item) => [item.id, item]));
  const nextById = new Map(next.map((item) => [item.id, item]));
  const nextTexts = new Map(next.map((item) => [normalise(item.content), item]));
  const deletedTexts = new Set(before.filter((item) => !editedById.has(item.id)).map((item) => normalise(item.content)));
  const overrides: PlanOverride[] = [];

  edited.forEach((item, index) => {
    const old = beforeById.get(item.id);
    const now = nextById.get(item.id);
    if (!old) {
      // Added by the person: kept when its text is still there (the agent may re-send it without an id).
      if (nextTexts.has(normalise(item.content))) return;
      // Its id now carrying a deleted step's text is the validator matching by position: a drop.
      if (now && !deletedTexts.has(normalise(now.content))) overrides.push({ kind: 'reworded_back', id: item.id, yours: item.content, theirs: now.content });
      else overrides.push({ kind: 'dropped', item, index });
      return;
    }
    if (
      normalise(old.content) !== normalise(item.content) &&
      now &&
      normalise(now.content) !== normalise(item.content) &&
      !deletedTexts.has(normalise(now.content))
    ) {
      overrides.push({ kind: 'reworded_back', id: item.id, yours: item.content, theirs: now.content });
    }
  });

  for (const deleted of before) {
    if (editedById.has(deleted.id)) continue;
    const back = nextTexts.get(normalise(deleted.content)) ?? nextById.get(deleted.id);
    if (!back) continue;
    const keptAs = editedById.get(back.id);
    if (!keptAs || normalise(keptAs.content) !== normalise(back.content)) overrides.push({ kind: 'restored', item: back, deleted });
  }
  return overrides;
}

/**
 * The overrides of the agent's plan `next` against the person's LAST edit: the run of user
 * versions at the end of `history` (the plan as it stood before `next`), compared with the version
 * before that run. None when the newest version is not the person's.
 */
export function overridesOfLastUserEdit(history: readonly PlanVersion[], next: readonly PlanItem[]): PlanOverride[] {
  const last = history.at(-1);
  if (!last || last.source !== 'user') return [];
  let start = history.length - 1;
  while (start > 0 && history[start - 1]!.source === 'user') start--;
  const before = start > 0 ? history[start - 1]!.items : [];
  return findOverrides(before, last.items, next);
}

/** The overrides in plain English, one line each: the transcript's and `keel run`'s wording. */
export function renderOverrides(overrides: readonly PlanOverride[]): string {
  return overrides
    .map((o) => {
      switch (o.kind) {
        case 'dropped':
          return `- the agent removed your step "${o.item.content}"`;
        case 'reworded_back':
          return `- the agent changed your wording "${o.yours}" back to "${o.theirs}"`;
        case 'restored':
          return `- the agent brought back the step you deleted, "${o.item.content}"`;
      }
    })
    .join('\n');
}
