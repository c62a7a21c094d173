import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { APPROVAL_MODES, type ApprovalMode } from '../../common/approvalModes';
import { ShieldIcon } from '../ui/icons';
import { pointerMoved } from '../ui/pointerMoved';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';

const MODES = APPROVAL_MODES;

export const MODE_LABELS: Record<ApprovalMode, MessageKey> = {
  ask: 'approval.mode.ask',
  auto_edits: 'approval.mode.auto_edits',
  full_auto: 'approval.mode.full_auto',
};

export const MODE_DESCRIPTIONS: Record<ApprovalMode, MessageKey> = {
  ask: 'approval.mode.ask.description',
  auto_edits: 'approval.mode.auto_edits.description',
  full_auto: 'approval.mode.full_auto.description',
};

interface Props {
  mode: ApprovalMode | null;
  onChange(mode: ApprovalMode): Promise<boolean>;
}

/**
 * The approval mode in the status bar: a button that opens a menu of the three modes (a WAI-ARIA
 * menu button with radio items: arrows, Home/End, Enter or Space, Escape).
 */
export function ApprovalModeMenu({ mode, onChange }: Props) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]')[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const openMenu = (index = Math.max(0, mode ? MODES.indexOf(mode) : 0)) => {
    setActive(index);
    setOpen(true);
  };

  const close = (focusButton = true) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  const choose = async (next: ApprovalMode) => {
    close();
    if (next !== mode) await onChange(next);
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = MODES.length - 1;
    if (event.key === 'ArrowDown') setActive((index) => (index === last ? 0 : index + 1));
    else if (event.key === 'ArrowUp') setActive((index) => (index === 0 ? last : index - 1));
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(last);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') close(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  const label = mode ? t(MODE_LABELS[mode]) : '…';

  return (
    <div className="approval-mode">
      <button
        type="button"
        ref={button}
        className="status-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('status.approval.button', { mode: label })}
        title={mode ? t(MODE_DESCRIPTIONS[mode]) : undefined}
        disabled={mode === null}
        onClick={() => (open ? close() : openMenu())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
            event.preventDefault();
            openMenu(event.key === 'ArrowUp' ? MODES.length - 1 : 0);
          }
        }}
      >
        <ShieldIcon />
        <span>{label}</span>
      </button>
      {open ? (
        <div className="menu approval-menu" role="menu" id={menuId} aria-label={t('status.approval.menu')} ref={menu} onKeyDown={onMenuKey}>
          {MODES.map((value, index) => (
            <div
              key={value}
              role="menuitemradio"
              aria-checked={value === mode}
              tabIndex={index === active ? 0 : -1}
              className="menu-item"
              onClick={() => void choose(value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  void choose(value);
                }
              }}
              onMouseMove={(event) => {
                if (pointerMoved(event)) setActive(index);
              }}
            >
              <span className="menu-check" aria-hidden="true">
                {value === mode ? '✓' : ''}
              </span>
              <span className="menu-text">
                <span className="menu-label">{t(MODE_LABELS[value])}</span>
                <span className="menu-description">{t(MODE_DESCRIPTIONS[value])}</span>
              </span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
