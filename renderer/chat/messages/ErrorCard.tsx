import { useState } from 'react';
import type { TaskErrorCode } from '../../../common/errorCodes';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n/messages';
import { useChat } from '../chatContext';
import { classifyError, CONNECTION_FIX, NOT_SENT, RETRY_FIX, SETTINGS_FIX, type ErrorKind } from '../errorAdvice';
import { AlertIcon } from '../../ui/icons';

const titles: Record<ErrorKind, MessageKey> = {
  auth: 'chat.error.auth',
  no_key: 'chat.error.noKey',
  forbidden: 'chat.error.forbidden',
  not_found: 'chat.error.notFound',
  connection: 'chat.error.connection',
  overloaded: 'chat.error.overloaded',
  max_tokens: 'chat.error.maxTokens',
  too_long: 'chat.error.tooLong',
  bad_request: 'chat.error.badRequest',
  other: 'chat.error.other',
};

const advice: Record<ErrorKind, MessageKey> = {
  auth: 'chat.error.authHelp',
  no_key: 'chat.error.noKeyHelp',
  forbidden: 'chat.error.forbiddenHelp',
  not_found: 'chat.error.notFoundHelp',
  connection: 'chat.error.connectionHelp',
  overloaded: 'chat.error.overloadedHelp',
  max_tokens: 'chat.error.maxTokensHelp',
  too_long: 'chat.error.tooLongHelp',
  bad_request: 'chat.error.badRequestHelp',
  other: 'chat.error.otherHelp',
};

/** A task that ended in an error: what happened (from main's code), main's words, and what to do next. */
export function ErrorCard({ taskId, message, code, actionable }: { taskId: string; message: string; code: TaskErrorCode | undefined; actionable: boolean }) {
  const { t } = useI18n();
  const { store, onOpenSettings, onConnectModel } = useChat();
  const kind = classifyError(code);
  const [retried, setRetried] = useState(false);
  return (
    <div className="chat-card card-error" role="group" aria-label={t(titles[kind])} data-outcome="error" data-error-kind={kind}>
      <div className="card-title">
        <AlertIcon />
        <span>{t(titles[kind])}</span>
      </div>
      <p>{t(advice[kind])}</p>
      {message && <p className="card-detail">{message}</p>}
      {actionable && (SETTINGS_FIX.has(kind) || RETRY_FIX.has(kind)) && (
        <div className="card-actions">
          {SETTINGS_FIX.has(kind) && (
            <button type="button" className="button button-primary button-small" onClick={CONNECTION_FIX.has(kind) ? onConnectModel : onOpenSettings}>
              {t('chat.error.openSettings')}
            </button>
          )}
          {RETRY_FIX.has(kind) && (
            <button
              type="button"
              className="button button-small"
              disabled={retried}
              onClick={() => {
                setRetried(true);
                // A message the model never got is sent as it was; otherwise the model is asked to go on.
                const task = NOT_SENT.has(kind) ? store.getSnapshot().items.find((item) => item.id === `task-${taskId}`) : undefined;
                void (task?.kind === 'user' ? store.sendAgain(task) : store.send(t('chat.retryMessage')));
              }}
            >
              {t('chat.error.retry')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
