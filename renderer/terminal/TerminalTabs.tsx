import { useRef, type KeyboardEvent } from 'react';
import { CloseIcon } from '../ui/icons';
import { useI18n } from '../i18n/I18nProvider';
import type { TerminalSnapshot, TerminalTab } from './terminalStore';

interface Props {
  snapshot: TerminalSnapshot;
  onSelect(id: string): void;
  onClose(id: string): void;
  onNew(): void;
}

export function useTabLabel(): (tab: TerminalTab) => string {
  const { t } = useI18n();
  return (tab) => (tab.kind === 'agent' ? t('terminal.agentTab') : tab.n > 1 ? t('terminal.tabName', { title: tab.title, n: tab.n }) : tab.title);
}

/**
 * The terminal tabs (ARIA tabs: ←/→, Home and End move between them, Delete closes a shell tab),
 * the Agent tab first, with a badge counting the agent's commands not yet seen; then "+".
 */
export function TerminalTabs({ snapshot, onSelect, onClose, onNew }: Props) {
  const { t } = useI18n();
  const label = useTabLabel();
  const list = useRef<HTMLDivElement>(null);
  const { tabs, activeId } = snapshot;

  const move = (event: KeyboardEvent<HTMLButtonElement>, tab: TerminalTab) => {
    const index = tabs.findIndex((entry) => entry.id === tab.id);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else if (event.key === 'Delete' && tab.kind === 'shell') {
      event.preventDefault();
      onClose(tab.id);
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[next]!;
    onSelect(target.id);
    list.current?.querySelector<HTMLElement>(`[data-tab-id="${CSS.escape(target.id)}"]`)?.focus();
  };

  return (
    <div className="terminal-tabs">
      <div role="tablist" aria-label={t('terminal.tabs')} className="terminal-tablist" ref={list}>
        {tabs.map((tab) => {
          const selected = tab.id === activeId;
          const name = label(tab);
          const badge = tab.kind === 'agent' && snapshot.agentUnseen > 0 && !selected ? snapshot.agentUnseen : 0;
          return (
            <div key={tab.id} className={`terminal-tab${selected ? ' is-active' : ''}${tab.exited ? ' is-exited' : ''}`} role="presentation">
              <button
                type="button"
                role="tab"
                id={`terminal-tab-${tab.id}`}
                data-tab-id={tab.id}
                className="terminal-tab-button"
                aria-selected={selected}
                aria-controls="terminal-pane"
                tabIndex={selected ? 0 : -1}
                title={tab.kind === 'agent' ? t('terminal.agentTab.help') : undefined}
                aria-keyshortcuts={tab.kind === 'shell' ? 'Delete' : undefined}
                onClick={() => onSelect(tab.id)}
                onKeyDown={(event) => move(event, tab)}
              >
                {tab.exited ? t('terminal.exitedTab', { name }) : name}
                {badge > 0 ? (
                  <span className="terminal-badge" aria-label={t('terminal.agentBadge', { count: badge })}>
                    {badge}
                  </span>
                ) : null}
              </button>
              {tab.kind === 'shell' ? (
                // The pointer's way to close; the keyboard's is Delete on the tab. Hidden from the
                // accessibility tree: a tab list holds only tabs.
                <button
                  type="button"
                  className="terminal-tab-close"
                  tabIndex={-1}
                  aria-hidden="true"
                  aria-label={t('terminal.close', { name })}
                  title={t('terminal.close', { name })}
                  onClick={() => onClose(tab.id)}
                >
                  <CloseIcon />
                </button>
              ) : null}
            </div>
          );
        })}
      </div>
      <button type="button" className="terminal-new" aria-label={t('terminal.new')} title={t('terminal.new')} onClick={onNew}>
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
