import { memo, useState } from 'react';
import type { ChatItem } from '../../../common/chat';
import type { PlanItem } from '../../../common/plan/types';
import { useI18n } from '../../i18n/I18nProvider';
import { StatusIcon } from '../../ui/icons';
import { useChat } from '../chatContext';
import { AlertIcon, DoneIcon, StopIcon } from '../../ui/icons';
import { plural } from '../../i18n/plural';
import { ErrorCard } from './ErrorCard';

type OutcomeItem = Extract<ChatItem, { kind: 'outcome' }>;

/**
 * How a task ended. `actionable`: the latest outcome while nothing runs, which offers what to do
 * next (continue, mark the plan done, open settings); `unfinished`: the plan's open steps.
 */
export const OutcomeRow = memo(function OutcomeRow({
  item,
  actionable,
  unfinished,
}: {
  item: OutcomeItem;
  actionable: boolean;
  unfinished: readonly PlanItem[] | null;
}) {
  const { t } = useI18n();
  switch (item.outcome) {
    case 'done':
      return (
        <div className="chat-outcome outcome-done" data-outcome="done">
          <DoneIcon />
          <span>{t('chat.outcome.done')}</span>
        </div>
      );
    case 'cancelled':
      return (
        <div className="chat-outcome outcome-cancelled" data-outcome="cancelled">
          <StopIcon />
          <span>{t('chat.outcome.cancelled')}</span>
          {/* Continue after any stop, the person's too, while the plan has open steps (issue 16.8). */}
          {actionable && unfinished && unfinished.length > 0 ? <ContinueButton /> : null}
        </div>
      );
    case 'stopped_unfinished':
      return <UnfinishedCard actionable={actionable} unfinished={unfinished} />;
    case 'refused':
      return (
        <div className="chat-card card-warning" role="group" aria-label={t('chat.outcome.refused')} data-outcome="refused">
          <div className="card-title">
            <AlertIcon />
            <span>{t('chat.outcome.refused')}</span>
          </div>
          <p>{t('chat.outcome.refusedHelp')}</p>
        </div>
      );
    case 'error':
      return <ErrorCard taskId={item.id.replace(/^end-/, '')} message={item.message ?? ''} code={item.errorCode} actionable={actionable} />;
  }
});

function ContinueButton() {
  const { t } = useI18n();
  const { store } = useChat();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button-primary button-small outcome-continue"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void store.send(t('chat.continueMessage')).then((failed) => {
            setError(failed);
            setBusy(false);
          });
        }}
      >
        {t('chat.outcome.continue')}
      </button>
      {error && (
        <span className="error-message" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

function UnfinishedCard({ actionable, unfinished }: { actionable: boolean; unfinished: readonly PlanItem[] | null }) {
  const { t } = useI18n();
  const { store } = useChat();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = unfinished ?? [];
  const settled = actionable && unfinished !== null && open.length === 0;
  const run = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setError(await action());
    setBusy(false);
  };
  return (
    <div className="chat-card card-warning" role="group" aria-label={t('chat.outcome.unfinished')} data-outcome="stopped_unfinished">
      <div className="card-title">
        <AlertIcon />
        <span>{t('chat.outcome.unfinished')}</span>
      </div>
      {settled ? (
        <p>{t('chat.outcome.unfinishedSettled')}</p>
      ) : (
        <>
          <p>
            {open.length > 0 ? plural(t, open.length, 'chat.outcome.unfinishedCount.one', 'chat.outcome.unfinishedCount') : t('chat.outcome.unfinishedHelp')}
          </p>
          {open.length > 0 && (
            <ul className="todo-items">
              {open.map((step) => (
                <li key={step.id} className={`todo-item is-${step.status}`}>
                  <StatusIcon status={step.status} />
                  <span className="todo-text">{step.content}</span>
                </li>
              ))}
            </ul>
          )}
          {actionable && (
            <div className="card-actions">
              <button
                type="button"
                className="button button-primary button-small"
                disabled={busy}
                onClick={() => void run(() => store.send(t('chat.continueMessage')))}
              >
                {t('chat.outcome.continue')}
              </button>
              <button type="button" className="button button-small" disabled={busy} onClick={() => void run(() => store.markPlanDone())}>
                {t('chat.outcome.markDone')}
              </button>
            </div>
          )}
        </>
      )}
      {error && (
        <p className="error-message" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
