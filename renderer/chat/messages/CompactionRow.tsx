import { memo, useId } from 'react';
import type { ChatItem } from '../../../common/chat';
import { useI18n } from '../../i18n/I18nProvider';
import { COMPACT_NUMBER, numberFormat } from '../../i18n/numberFormat';
import { useExpanded } from '../chatContext';
import { ChevronIcon, InfoIcon } from '../../ui/icons';

type CompactionItem = Extract<ChatItem, { kind: 'compaction' }>;

/** Keel made room in the conversation; the row opens to the summary the agent continues from and what was cleared. */
export const CompactionRow = memo(function CompactionRow({ item }: { item: CompactionItem }) {
  const { t, language } = useI18n();
  const [open, setOpen] = useExpanded(item.id, false);
  const id = useId();
  const format = numberFormat(language, COMPACT_NUMBER);
  const label =
    item.stage === 'summarized'
      ? t('chat.compaction.summarized', {
          count: String(item.summarizedMessages),
          before: format.format(item.beforeTokens),
          after: format.format(item.afterTokens),
        })
      : t('chat.compaction.cleared', { count: String(item.clearedResults), before: format.format(item.beforeTokens), after: format.format(item.afterTokens) });
  const reason = t(`chat.compaction.reason.${item.reason}`);
  const placeholders = item.placeholders ?? [];
  if (!item.summary && placeholders.length === 0) {
    return (
      <div className="chat-notice chat-compaction" data-testid="compaction-row">
        <span className="notice-head" title={reason}>
          <InfoIcon />
          <span>{label}</span>
        </span>
      </div>
    );
  }
  return (
    <div className="chat-notice chat-compaction" data-testid="compaction-row">
      <button type="button" className="notice-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} title={reason}>
        <ChevronIcon open={open} size={12} className="chevron" />
        <InfoIcon />
        <span>{label}</span>
      </button>
      {open && (
        <div id={id} className="compaction-summary">
          {item.summary ? (
            <>
              <div className="compaction-summary-heading">{t('chat.compaction.summaryHeading')}</div>
              <pre className="notice-text">{item.summary}</pre>
            </>
          ) : null}
          {placeholders.length > 0 ? (
            <>
              <div className="compaction-summary-heading">{t('chat.compaction.clearedHeading')}</div>
              <pre className="notice-text">{placeholders.join('\n')}</pre>
            </>
          ) : null}
        </div>
      )}
    </div>
  );
});
