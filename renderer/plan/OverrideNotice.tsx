import { useState } from 'react';
import type { PlanOverride } from '../../common/plan/overrides';
import type { PlanItem } from '../../common/plan/types';
import { InfoIcon } from '../ui/icons';
import { useI18n, type Translate } from '../i18n/I18nProvider';
import { undoOverride } from './proposals';

/** "The agent removed your step 'X'", in the person's language. */
export function overrideText(override: PlanOverride, t: Translate): string {
  switch (override.kind) {
    case 'dropped':
      return t('plan.override.dropped', { content: override.item.content });
    case 'reworded_back':
      return t('plan.override.reworded_back', { yours: override.yours, theirs: override.theirs });
    case 'restored':
      return t('plan.override.restored', { content: override.item.content });
  }
}

const actionKey = { dropped: 'plan.override.putBack', reworded_back: 'plan.override.useMine', restored: 'plan.override.removeAgain' } as const;

interface Props {
  overrides: readonly PlanOverride[];
  /** Puts the person's version back through a normal plan edit; resolves whether it was stored. */
  onUndo(override: PlanOverride): Promise<boolean>;
  onDismiss?(): void;
  className?: string;
  /** The plan as stored now: an override it already settles (put back, or changed since) shows as done. */
  items?: readonly PlanItem[];
}

/**
 * Where the agent's accepted plan undid the person's last edit (issue 16.1), each with one click
 * to have theirs back. Shown on the board and in the chat.
 */
export function OverrideNotice({ overrides, onUndo, onDismiss, className = '', items }: Props) {
  const { t } = useI18n();
  const [state, setState] = useState<Map<PlanOverride, 'busy' | 'done' | 'failed'>>(new Map());
  if (overrides.length === 0) return null;
  const run = async (override: PlanOverride) => {
    setState((current) => new Map(current).set(override, 'busy'));
    const stored = await onUndo(override);
    setState((current) => new Map(current).set(override, stored ? 'done' : 'failed'));
  };
  return (
    <div className={`override-notice ${className}`} role="status" aria-label={t('plan.override.title')}>
      <div className="override-head">
        <InfoIcon />
        <span className="override-title">{t('plan.override.title')}</span>
        {onDismiss ? (
          <button type="button" className="button button-small override-dismiss" onClick={onDismiss}>
            {t('plan.override.dismiss')}
          </button>
        ) : null}
      </div>
      <ul className="override-list">
        {overrides.map((override, index) => {
          const status = state.get(override) ?? (items && undoOverride(items, override) === null ? 'done' : undefined);
          return (
            <li key={index} className="override-line" data-override={override.kind}>
              <span className="override-text">{overrideText(override, t)}</span>
              {status === 'done' ? (
                <span className="override-done">{t('plan.override.done')}</span>
              ) : (
                <button type="button" className="button button-small" disabled={status === 'busy'} onClick={() => void run(override)}>
                  {t(actionKey[override.kind])}
                </button>
              )}
              {status === 'failed' ? <span className="override-failed">{t('plan.override.failed')}</span> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
