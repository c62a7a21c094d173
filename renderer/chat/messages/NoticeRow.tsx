import { memo, useId } from 'react';
import type { ChatItem } from '../../../common/chat';
import { useI18n } from '../../i18n/I18nProvider';
import { useExpanded } from '../chatContext';
import { ChevronIcon, InfoIcon } from '../icons';

type NoticeItem = Extract<ChatItem, { kind: 'notice' }>;

const labels = {
  reminder: 'chat.notice.reminder',
  gate: 'chat.notice.gate',
  plan_update: 'chat.notice.planUpdate',
  max_tokens: 'chat.notice.maxTokens',
} as const;

/** Something Keel told the model on its own; opens to show exactly what it was told. */
export const NoticeRow = memo(function NoticeRow({ item }: { item: NoticeItem }) {
  const { t } = useI18n();
  const [open, setOpen] = useExpanded(item.id, false);
  const id = useId();
  const label = item.notice in labels ? t(labels[item.notice as keyof typeof labels]) : item.notice;
  return (
    <div className={`chat-notice notice-${item.notice}`}>
      <button type="button" className="notice-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <ChevronIcon open={open} />
        <InfoIcon />
        <span>{label}</span>
      </button>
      {open && (
        <pre id={id} className="notice-text">
          {item.text}
        </pre>
      )}
    </div>
  );
});
