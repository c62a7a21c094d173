import type { ApprovalMode } from '../../common/approvals';
import { useI18n } from '../i18n/I18nProvider';
import { MODE_DESCRIPTIONS, MODE_LABELS } from '../status/ApprovalModeMenu';
import type { MessageKey } from '../i18n/messages';
import { useChat } from './chatContext';
import { ConnectModel } from '../settings/ConnectModel';

const EXAMPLES: MessageKey[] = ['chat.empty.example1', 'chat.empty.example2', 'chat.empty.example3'];

/** A new session: what Keel does, and tasks to start from. */
export function EmptyState({ hasFolder, approvalMode, noApiKey = false }: { hasFolder: boolean; approvalMode: ApprovalMode | null; noApiKey?: boolean }) {
  const { t } = useI18n();
  const { fillComposer, onConnectModel } = useChat();
  return (
    <div className="chat-empty">
      <h2 className="chat-empty-title">{hasFolder ? t('chat.empty.title') : t('chat.empty.noFolderTitle')}</h2>
      <p>{t('chat.empty.what')}</p>
      <ul className="chat-empty-points">
        <li>{t('chat.empty.point1')}</li>
        <li>{t('chat.empty.point2')}</li>
        <li>{t('chat.empty.point3')}</li>
      </ul>
      {noApiKey ? <ConnectModel onConnect={onConnectModel} level={3} /> : null}
      {hasFolder && approvalMode ? (
        <p className="chat-empty-mode" data-mode={approvalMode}>
          {t('chat.empty.mode', { mode: t(MODE_LABELS[approvalMode]), description: t(MODE_DESCRIPTIONS[approvalMode]) })}
        </p>
      ) : null}
      {hasFolder ? (
        <div className="chat-empty-examples">
          <p className="chat-empty-label">{t('chat.empty.try')}</p>
          {EXAMPLES.map((key) => (
            <button key={key} type="button" className="example-task" onClick={() => fillComposer(t(key))}>
              {t(key)}
            </button>
          ))}
        </div>
      ) : (
        <p className="chat-empty-label">{t('chat.empty.noFolder')}</p>
      )}
    </div>
  );
}
