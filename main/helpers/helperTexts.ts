import type { HelperInfo } from '../../common/helpers';
import type { PlanItem } from '../../common/plan/types';

/*
 * The helpers' words to the models: a helper's first message, and the delegate call's result the
 * main agent reads when the helper ends.
 */

/** A helper's first user message: who it is, its one step and what that step waited for, then its instructions. */
export function helperFirstMessage(helperId: string, step: PlanItem, plan: readonly PlanItem[], instructions: string, inPlace: boolean): string {
  const waited = (step.blockedBy ?? []).flatMap((id) => {
    const blocker = plan.find((item) => item.id === id);
    return blocker ? [`- #${blocker.id} "${blocker.content}" (${blocker.status})`] : [];
  });
  return [
    `You are ${helperId}, a helper agent. The main agent handed you one step of its plan; work on that step only.`,
    `Step #${step.id}: ${step.content}`,
    waited.length > 0 ? `It waited for these steps, done before you started:\n${waited.join('\n')}` : 'It waits for no other step.',
    inPlace
      ? 'You work in the folder itself (it is not a git repository).'
      : 'You work in a copy of the folder of your own (a git worktree); your changes are merged into the folder when you finish.',
    'Keep your own todo list with the todo tool if the step needs several actions. You cannot delegate. End with a short answer that says what you did and anything left undone: the main agent reads it.',
    `Instructions:\n${instructions}`,
  ].join('\n\n');
}

const MERGE_WORDS: Record<HelperInfo['merge'], string> = {
  pending: 'not merged yet',
  merged: 'merged into the folder',
  nothing: 'nothing to merge (it changed no file)',
  in_place: 'made in the folder itself (not a git repository), nothing to merge',
  conflict: 'NOT merged: they conflict with the folder, which is unchanged',
  discarded: 'discarded',
  kept: 'not merged: they are kept in its worktree for the person to merge or discard',
};

/** What the delegate call answers when the helper has ended. */
export function delegateResultText(info: HelperInfo, step: PlanItem | undefined): string {
  const lines = [`${info.id} ${endWords(info)} step #${info.item} "${info.content}".`];
  const files = info.changedFiles.length > 0 ? info.changedFiles.join(', ') : 'none';
  lines.push(`Files changed: ${files}.`);
  lines.push(`Changes: ${MERGE_WORDS[info.merge]}.`);
  // Keel moved the step itself: said, so the model does not spend a todo call (and a round) on it.
  lines.push(step ? `On the plan, step #${step.id} is now ${STATUS_WORDS[step.status]}.` : `Step #${info.item} is no longer in the plan.`);
  if (info.merge === 'conflict')
    lines.push(
      `Conflicting files: ${info.conflictFiles.join(', ')}. The person can open the helper's version, merge it or discard it on the board; do not redo the step unless asked.`,
    );
  if (info.reason) lines.push(`Reason: ${info.reason}`);
  lines.push(`Its answer:\n${info.answer?.trim() || '(no answer)'}`);
  return lines.join('\n');
}

const STATUS_WORDS: Record<PlanItem['status'], string> = {
  completed: 'completed (Keel marked it; no todo call is needed for it)',
  in_progress: 'in progress',
  pending: 'pending again',
};

function endWords(info: HelperInfo): string {
  switch (info.state) {
    case 'failed':
      return 'failed on';
    case 'stopped':
      return 'was stopped on';
    default:
      return 'finished';
  }
}
