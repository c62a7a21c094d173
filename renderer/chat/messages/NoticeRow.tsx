import { memo, useId } from 'react';
import type { ChatItem } from '../../../common/chat';
import type { PlanItem } from '../../../common/plan/types';
import { useI18n } from '../../i18n/I18nProvider';
import { useExpanded } from '../chatContext';
import { ChevronIcon, InfoIcon } from '../../ui/icons';
import { OverrideNotice } from '../../plan/OverrideNotice';
import { undoOverrideEdit } from '../../plan/undoOverrideEdit';
import { diffPlans } from '../../../common/plan/diff';
import { PlanChangeList } from '../tools/PlanChangeList';

type NoticeItem = Extract<ChatItem, { kind: 'notice' }>;

const labels = {
  reminder: 'chat.notice.reminder',
  gate: 'chat.notice.gate',
  plan_update: 'chat.notice.planUpdate',
  max_tokens: 'chat.notice.maxTokens',
  plan_override: 'chat.notice.planOverride',
  model: 'chat.notice.model',
} as const;

/** Something Keel told the model on its own; opens to show exactly what it was told. */
export const NoticeRow = memo(function NoticeRow({ item, planItems }: { item: NoticeItem; planItems?: readonly PlanItem[] }) {
  const { t } = useI18n();
  const [open, setOpen] = useExpanded(item.id, false);
  const id = useId();
  if (item.notice === 'plan_override' && item.overrides) {
    // For the person, not the model: what the agent undid of their edit, with theirs one click away.
    return <OverrideNotice overrides={item.overrides} onUndo={undoOverrideEdit} items={planItems} className="chat-notice notice-plan_override" />;
  }
  const label = item.notice in labels ? t(labels[item.notice as keyof typeof labels]) : item.notice;
  return (
    <div className={`chat-notice notice-${item.notice}`}>
      <button type="button" className="notice-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <ChevronIcon open={open} size={12} className="chevron" />
        <InfoIcon />
        <span>{label}</span>
      </button>
      {open && item.plan ? (
        <div id={id} className="notice-plan">
          <PlanChangeList changes={diffPlans(item.plan.before, item.plan.after)} label={t('chat.notice.planUpdate.changes')} yours />
          <details className="notice-wire">
            <summary>{t('chat.notice.planUpdate.wire')}</summary>
            <pre className="notice-text">{item.text}</pre>
          </details>
        </div>
      ) : open ? (
        <pre id={id} className="notice-text">
          {item.text}
        </pre>
      ) : null}
    </div>
  );
});
