import { memo, useId } from 'react';
import type { ChatItem } from '../../../common/chat';
import { useI18n } from '../../i18n/I18nProvider';
import { useExpanded } from '../chatContext';
import { ChevronIcon } from '../../ui/icons';

type ThinkingItem = Extract<ChatItem, { kind: 'thinking' }>;

/** The model's thinking: open while it streams, folded once the answer starts, opened again on demand. */
export const ThinkingRow = memo(function ThinkingRow({ item }: { item: ThinkingItem }) {
  const { t } = useI18n();
  const [open, setOpen] = useExpanded(item.id, item.streaming === true);
  const id = useId();
  if (item.redacted) {
    return (
      <div className="chat-notice chat-thinking" data-testid="thinking-row" data-redacted="true">
        <span className="notice-head">{t('chat.thinking.redacted')}</span>
      </div>
    );
  }
  return (
    <div className="chat-notice chat-thinking" data-testid="thinking-row" data-streaming={item.streaming === true ? 'true' : 'false'}>
      <button type="button" className="notice-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <ChevronIcon open={open} size={12} className="chevron" />
        <span>{item.streaming ? t('chat.thinking.live') : t('chat.thinking.done')}</span>
      </button>
      {open && (
        <pre id={id} className="notice-text thinking-text">
          {item.text}
        </pre>
      )}
    </div>
  );
});
