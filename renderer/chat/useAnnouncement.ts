import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import type { ChatSnapshot } from './chatStore';

/**
 * A short sentence for screen readers when something the person must know happens (an approval
 * is needed, the task ended); the streamed text itself is not announced token by token.
 */
export function useAnnouncement(chat: ChatSnapshot): string {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const approvals = chat.approvals.length;
  const previousApprovals = useRef(approvals);
  const last = chat.items.at(-1);
  const outcome = last?.kind === 'outcome' ? last : null;
  const previousOutcome = useRef(outcome?.id ?? null);

  useEffect(() => {
    const waiting = t('chat.announce.approval');
    if (approvals > previousApprovals.current) setText(waiting);
    // Answered: the region must not go on saying the agent waits (a reader finds it while browsing).
    else if (approvals === 0) setText((current) => (current === waiting ? '' : current));
    previousApprovals.current = approvals;
  }, [approvals, t]);

  useEffect(() => {
    if (outcome && outcome.id !== previousOutcome.current && chat.loaded) {
      const key = {
        done: 'chat.outcome.done',
        cancelled: 'chat.outcome.cancelled',
        stopped_unfinished: 'chat.outcome.unfinished',
        error: 'chat.error.other',
        refused: 'chat.outcome.refused',
      } as const;
      setText(t(key[outcome.outcome]));
    }
    previousOutcome.current = outcome?.id ?? null;
  }, [outcome, chat.loaded, t]);

  return text;
}
