import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PLAN_STATUSES, type PlanStatus } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';

export const STATUS_LABELS: Record<PlanStatus, MessageKey> = {
  pending: 'plan.status.pending',
  in_progress: 'plan.status.in_progress',
  completed: 'plan.status.completed',
};

/** Keys that make a closed select change its value at once (Chromium on Linux and Windows). */
const STEPPING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

interface Props {
  status: PlanStatus;
  content: string;
  onChange(status: PlanStatus): void;
}

/**
 * The item's status as a word (the row shows its marker), and the control that changes it.
 * Controlled by the STORED status: until main accepts a change, it keeps showing the stored one.
 * A pick from the open list (or the mouse) is sent at once; arrowing through a closed select only
 * moves a draft, sent by Enter, Space or leaving the control, and dropped by Escape: otherwise ↓
 * from Pending would send "In progress" on the way to "Completed", refused while another step is.
 */
export function StatusSelect({ status, content, onChange }: Props) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<PlanStatus | null>(null);
  const stepping = useRef(false);
  // The stored status moved on (accepted, or the agent wrote the plan): a draft made on the old one goes.
  useEffect(() => setDraft(null), [status]);

  const commit = () => {
    if (draft !== null && draft !== status) onChange(draft);
    setDraft(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLSelectElement>) => {
    if (STEPPING_KEYS.has(event.key) || (event.key.length === 1 && event.key !== ' ')) stepping.current = true;
    else if (draft !== null && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      commit();
    } else if (draft !== null && event.key === 'Escape') {
      // Only the draft goes: the chat's Escape (Stop) is for when nothing is being chosen here.
      event.preventDefault();
      event.stopPropagation();
      setDraft(null);
    }
  };

  return (
    <span className={`status-pill status-${status}`}>
      <select
        className="status-select"
        aria-label={t('plan.status.label', { content })}
        value={draft ?? status}
        data-part="status"
        onKeyDown={onKeyDown}
        onKeyUp={() => (stepping.current = false)}
        onBlur={commit}
        onChange={(event) => {
          const value = event.target.value as PlanStatus;
          if (stepping.current) {
            setDraft(value === status ? null : value);
            return;
          }
          setDraft(null);
          onChange(value);
        }}
      >
        {PLAN_STATUSES.map((value) => (
          <option key={value} value={value}>
            {t(STATUS_LABELS[value])}
          </option>
        ))}
      </select>
    </span>
  );
}
