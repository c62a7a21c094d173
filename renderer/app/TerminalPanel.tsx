import { useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';
import { AGENT_TAB } from '../terminal/agentTab';
import { TerminalPane } from '../terminal/TerminalPane';
import { terminalPart } from '../terminal/terminalPart';
import type { TerminalSnapshot } from '../terminal/terminalStore';
import { TerminalTabs } from '../terminal/TerminalTabs';
import { ChevronIcon, TerminalIcon } from '../ui/icons';
import { useLazyPart, whenIdle } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import { Separator } from './layout/Separator';

interface Props {
  open: boolean;
  height: number;
  maxHeight: number;
  minHeight: number;
  onToggle(): void;
  onResize(height: number): void;
  onReset(): void;
}

/**
 * The bottom panel: the person's shells in tabs and the read-only Agent tab, where every command
 * the agent runs appears live. Collapsed to its title bar by default (the agent's commands are
 * still taken in, and counted on a badge); opened, its height is set by the separator above it,
 * and a shell is started if none is open.
 */
export function TerminalPanel({ open, height, maxHeight, minHeight, onToggle, onResize, onReset }: Props) {
  const { t } = useI18n();
  // xterm.js is loaded at once for an open panel, else as soon as the window is idle after its
  // first paint (not later: the Agent tab counts the agent's commands while the panel is closed).
  const part = useLazyPart(terminalPart, false);
  useEffect(() => (open ? void terminalPart.load().catch(() => undefined) : whenIdle(() => terminalPart.prefetch(), 0)), [open]);
  const store = part.status === 'ready' ? part.module.terminalStore(api) : null;
  const snapshot = useSyncExternalStore(store ? store.subscribe : noSubscription, store ? store.getSnapshot : noSnapshot);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => store?.setTranslator(t), [store, t]);
  useEffect(() => store?.setPanelOpen(open), [store, open]);

  const select = (id: string) => {
    store?.select(id);
    setFocusRequest((n) => n + 1);
  };
  const create = () => {
    void store?.createShell().then((id) => id && setFocusRequest((n) => n + 1));
  };
  const showAgent = () => {
    store?.select(AGENT_TAB);
    if (!open) onToggle();
  };

  return (
    <>
      {open ? (
        <Separator
          orientation="horizontal"
          label={t('layout.resizeTerminal')}
          controls="terminal-panel"
          value={height}
          min={minHeight}
          max={maxHeight}
          inverted
          onChange={onResize}
          onReset={onReset}
        />
      ) : null}
      <section className={`terminal-panel${open ? ' is-open' : ''}`} aria-labelledby="terminal-title" id="terminal-panel" style={open ? { height } : undefined}>
        <div className="panel-bar terminal-bar">
          <h2 className="terminal-heading">
            <button
              type="button"
              id="terminal-title"
              className="panel-toggle"
              aria-expanded={open}
              aria-controls={open ? 'terminal-body' : undefined}
              onClick={onToggle}
            >
              <ChevronIcon open={open} />
              <TerminalIcon />
              {t('terminal.title')}
            </button>
          </h2>
          {!store ? null : open ? (
            <TerminalTabs snapshot={snapshot} onSelect={select} onClose={(id) => void store.closeShell(id)} onNew={create} />
          ) : snapshot.agentUnseen > 0 ? (
            <button type="button" className="terminal-agent-pill" onClick={showAgent} title={t('terminal.showAgent')}>
              {t('terminal.agentTab')}
              <span className="terminal-badge" aria-label={t('terminal.agentBadge', { count: snapshot.agentUnseen })}>
                {snapshot.agentUnseen}
              </span>
            </button>
          ) : null}
        </div>
        {open ? (
          <div id="terminal-body" className="terminal-body terminal-live">
            {snapshot.error ? (
              <p className="terminal-error" role="alert">
                {snapshot.error}
              </p>
            ) : null}
            {store ? (
              <TerminalPane store={store} activeId={snapshot.activeId} labelledBy={`terminal-tab-${snapshot.activeId}`} focusRequest={focusRequest} />
            ) : (
              <PartFallback part="terminal" state={part} className="terminal-fallback" />
            )}
          </div>
        ) : null}
      </section>
    </>
  );
}

/** Until the terminals are loaded: no tabs, nothing to count. */
const EMPTY_SNAPSHOT: TerminalSnapshot = { tabs: [], activeId: AGENT_TAB, agentUnseen: 0, error: undefined };
const noSubscription = () => () => undefined;
const noSnapshot = () => EMPTY_SNAPSHOT;
