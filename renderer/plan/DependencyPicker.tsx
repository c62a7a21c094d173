import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { PlanItem } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { StatusIcon } from '../ui/icons';

interface Props {
  id: string;
  item: PlanItem;
  items: readonly PlanItem[];
  /** Ticked: the step waits for `on`; unticked: no longer. Each goes to main as an edit of its own. */
  onToggle(on: string, waits: boolean): void;
  onClose(): void;
}

/**
 * The other steps, each with a box to tick when this step waits for it. Opened from the step's
 * row; Tab or ↑/↓ move between the steps, Space ticks, Esc closes. The boxes show what main
 * stored: a refused tick stays unticked, and the refusal is shown beside the step.
 */
export function DependencyPicker({ id, item, items, onToggle, onClose }: Props) {
  const { t } = useI18n();
  const panel = useRef<HTMLDivElement>(null);
  const others = items.filter((other) => other.id !== item.id);
  const waitsFor = new Set(item.blockedBy ?? []);

  useEffect(() => {
    panel.current?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.focus();
  }, []);

  // A press outside the step closes it, as a menu would.
  useEffect(() => {
    const row = panel.current?.closest('li');
    const outside = (event: PointerEvent) => {
      if (row && !row.contains(event.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [onClose]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const boxes = [...(panel.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? [])];
    const at = boxes.indexOf(document.activeElement as HTMLInputElement);
    if (at < 0) return;
    event.preventDefault();
    boxes[(at + (event.key === 'ArrowDown' ? 1 : boxes.length - 1)) % boxes.length]?.focus();
  };

  return (
    <div className="dep-picker" id={id} ref={panel} role="group" aria-labelledby={`${id}-title`} onKeyDown={onKeyDown}>
      <p className="dep-picker-title" id={`${id}-title`}>
        {t('plan.deps.pickerTitle', { content: item.content })}
      </p>
      {others.length === 0 ? (
        <p className="dep-picker-empty">{t('plan.deps.none')}</p>
      ) : (
        <ul className="dep-options">
          {others.map((other) => (
            <li key={other.id}>
              <label className={`dep-option is-${other.status}`}>
                <input type="checkbox" checked={waitsFor.has(other.id)} onChange={(event) => onToggle(other.id, event.target.checked)} />
                <StatusIcon status={other.status} />
                <span className="dep-id">#{other.id}</span>
                <span className="dep-option-text">{other.content}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="dep-picker-foot">
        <span className="dep-picker-hint">{t('plan.deps.hint')}</span>
        <button type="button" className="button button-small" onClick={onClose}>
          {t('plan.deps.done')}
        </button>
      </div>
    </div>
  );
}
