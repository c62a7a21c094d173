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

const overrideKey = (o: PlanOverride): string => {
  switch (o.kind) {
    case 'dropped':
      return `dropped:${o.item.id}`;
    case 'reworded_back':
      return `reworded:${o.id}`;
    case 'restored':
      return `restored:${o.deleted.id}`;
  }
};

/**
 * The overrides of the agent's plan `next` against EVERY edit the person made since `fromVersion`
 * (the plan as the current task found it), not only the last one: a step the person added stays
 * theirs when the model keeps it once and drops it a call later. Each run of user versions is
 * compared with the version before it; only what `next` newly undoes is reported (what the plan
 * before `next` already undid was reported then, or the person let it be). A later edit of the
 * person's to the same step speaks for them.
 */
export function overridesOfPersonEdits(history: readonly PlanVersion[], next: readonly PlanItem[], fromVersion = 0): PlanOverride[] {
  const current = history.at(-1)?.items ?? [];
  const found = new Map<string, PlanOverride>();
  let index = 0;
  while (index < history.length) {
    if (history[index]!.source !== 'user' || history[index]!.version <= fromVersion) {
      index++;
      continue;
    }
    const start = index;
    while (index + 1 < history.length && history[index + 1]!.source === 'user') index++;
    const before = start > 0 ? history[start - 1]!.items : [];
    const edited = history[index]!.items;
    const already = new Set(findOverrides(before, edited, current).map(overrideKey));
    for (const override of findOverrides(before, edited, next)) {
      const key = overrideKey(override);
      found.delete(key);
      if (!already.has(key)) found.set(key, override);
    }
    index++;
  }
  return [...found.values()];
}

/**
 * What the agent's accepted `todo` call undid of the person's edits, for the model: which of the
 * person's steps it removed, whose wording it changed, what it brought back. Empty when none.
 */
export function renderOverridesForModel(overrides: readonly PlanOverride[]): string {
  if (overrides.length === 0) return '';
  const lines = overrides.map((o) => {
    switch (o.kind) {
      case 'dropped':
        return `- it removes the person's step "${o.item.content}"`;
      case 'reworded_back':
        return `- it changes the person's wording "${o.yours}" to "${o.theirs}"`;
      case 'restored':
        return `- it brings back "${o.item.content}", a step the person deleted`;
    }
  });
  return [
    'Note: this plan undoes what the person changed on the board:',
    ...lines,
    'The person is shown this with a button to put theirs back. Unless they asked for it, send the plan again with their version in your next todo call.',
  ].join('\n');
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
