import { memo, useState } from 'react';
import type { ChatItem } from '../../../common/chat';
import { useI18n } from '../../i18n/I18nProvider';
import { useChat, useExpanded } from '../chatContext';
import { ChatThumbnails } from '../attachments/ChatThumbnail';
import { MentionText } from '../mentions/MentionText';

type UserItem = Extract<ChatItem, { kind: 'user' }>;

const LONG_LINES = 14;
const LONG_CHARS = 1_500;

/** The person's message; a message sent while the agent worked says whether it reached the agent. */
export const UserMessage = memo(function UserMessage({ item }: { item: UserItem }) {
  const { t } = useI18n();
  const { store } = useChat();
  const long = item.text.length > LONG_CHARS || item.text.split('\n', LONG_LINES + 1).length > LONG_LINES;
  const [open, setOpen] = useExpanded(`user-${item.id}`, false);
  const [resent, setResent] = useState(false);
  const state = item.queued ? 'queued' : item.notSent ? 'not-sent' : 'sent';
  return (
    <div className={`chat-user state-${state}`} data-message-state={state}>
      <div className="chat-user-head">
        <span className="chat-who">{t('chat.you')}</span>
        {item.queued && (
          <span className="chip chip-accent" title={t('chat.queued.help')}>
            {t('chat.queued')}
          </span>
        )}
        {item.notSent && <span className="chip chip-warning">{t('chat.notSent')}</span>}
      </div>
      {/* A message that is only pictures has no words to show: no empty line above them. */}
      {item.text !== '' && (
        <div className={`chat-user-text${long && !open ? ' is-clipped' : ''}`}>
          <MentionText text={item.text} mentions={item.mentions} />
        </div>
      )}
      <ChatThumbnails images={item.images} alt={(n) => t('chat.images.alt', { n })} />
      {long && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('chat.showLess') : t('chat.showMore')}
        </button>
      )}
      {item.queued && <p className="chat-user-note">{t('chat.queued.help')}</p>}
      {item.notSent && (
        <p className="chat-user-note">
          {t('chat.notSent.help')}{' '}
          <button
            type="button"
            className="link-button"
            disabled={resent}
            onClick={() => {
              setResent(true);
              void store.sendAgain(item);
            }}
          >
            {t('chat.sendAgain')}
          </button>
        </p>
      )}
    </div>
  );
});
