import { useEffect, useRef, useState } from 'react';
import { ChangesButton } from '../changes/ChangesButton';
import { changesPart } from '../changes/changesPart';
import { LazyChangesPanel } from '../changes/LazyChangesPanel';
import { useChanges } from '../changes/useChanges';
import { markdownPart } from '../chat/markdown/markdownPart';
import { useI18n } from '../i18n/I18nProvider';
import { SessionsSidebar, sessionTitle } from '../sessions/SessionsSidebar';
import { useSessions } from '../sessions/useSessions';
import { LazySettingsDialog } from '../settings/LazySettingsDialog';
import { settingsPart } from '../settings/settingsPart';
import { StatusBar } from '../status/StatusBar';
import { useAgentStatus } from '../status/useAgentStatus';
import { useModelProfile } from '../status/useModelProfile';
import { useSandboxStatus } from '../status/useSandboxStatus';
import { useLazyPart, whenIdle } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import { CHAT_MIN_WIDTH, DEFAULT_LAYOUT, NARROW_WINDOW, PANES_MIN_HEIGHT, planMaxWidth, SIZE_LIMITS } from './layout/paneLayout';
import { Separator } from './layout/Separator';
import { usePaneLayout } from './layout/usePaneLayout';
import { OpenFolderDialog } from './OpenFolderDialog';
import { TerminalPanel } from './TerminalPanel';
import { useElementSize } from './useElementSize';
import type { SettingsState } from './useSettings';
import { useWorkspace } from './useWorkspace';
import { workspacePart } from './workspacePart';
import { Welcome } from './Welcome';
import { WorkspaceHeader } from './WorkspaceHeader';

const SIDEBAR_ID = 'sessions-sidebar';

/** Where the person goes on when the element they were on is gone: the message box, else the welcome's folder field. */
function defaultFocus(): HTMLElement | null {
  const composer = document.getElementById('composer-input');
  if (composer instanceof HTMLTextAreaElement && !composer.disabled) return composer;
  return document.querySelector<HTMLElement>('.welcome input');
}
const SEPARATOR = 1;
const TERMINAL_BAR = 30;

/**
 * The window's shell: header, the sessions sidebar, the plan board and the chat side by side over
 * the terminal panel, and the status bar. The sidebar, plan and terminal sizes are set with the
 * separators between them (pointer or keyboard) and remembered.
 */
export function Workbench({ settings }: { settings: SettingsState }) {
  const { t } = useI18n();
  const { app, workspace, hostError, open, choose } = useWorkspace();
  const sessions = useSessions(workspace);
  const status = useAgentStatus(workspace?.sessionId ?? null);
  const saved = settings.view;
  const model = useModelProfile(workspace?.sessionId ?? null, saved ? `${saved.model}|${saved.baseURL}|${saved.maxTokens}|${saved.contextWindow}` : '');
  const sandbox = useSandboxStatus(workspace?.sessionId ?? null);
  const { layout, resize, toggle } = usePaneLayout();
  const panes = useLazyPart(workspacePart);
  // Open at the top, or at the model's connection (first contact, a refused key).
  const [settingsOpen, setSettingsOpen] = useState<false | 'top' | 'connection'>(false);
  const connectModel = () => setSettingsOpen('connection');
  const noApiKey = settings.view ? !settings.view.apiKey.set : false;
  const changes = useChanges(workspace?.sessionId ?? null);
  const [changesOpen, setChangesOpen] = useState(false);
  const [folderDialogOpen, setFolderDialogOpen] = useState(false);
  const [headerError, setHeaderError] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const work = useRef<HTMLElement>(null);
  const bodySize = useElementSize(body);
  const workSize = useElementSize(work);

  // The parts not drawn at first are fetched once the window has shown its folder (or the welcome)
  // and is idle, so that opening them later does not wait for the network or the parser.
  const settled = workspace !== undefined;
  useEffect(() => {
    if (!settled) return;
    return whenIdle(() => {
      for (const part of [markdownPart, settingsPart, changesPart]) part.prefetch();
    });
  }, [settled]);

  // Ctrl+, (⌘, on a Mac) opens the settings, as in most desktop apps.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setSettingsOpen('top');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const openFolder = async (path: string) => {
    const result = await open(path);
    setHeaderError(result.ok ? null : result.error.message);
    return result;
  };

  /** For the path fields, which show their own error: only success clears the header's. */
  const openFromField = async (path: string) => {
    const result = await open(path);
    if (result.ok) setHeaderError(null);
    return result;
  };

  const onOpenFolderButton = async () => {
    if (app?.nativeFolderPicker) {
      const result = await choose();
      setHeaderError(result.ok ? null : result.error.message);
    } else setFolderDialogOpen(true);
  };

  const measured = bodySize.width > 0;
  // In a narrow window the sidebar is a drawer over the panes, closed until asked for (and not remembered).
  const narrow = measured && bodySize.width < NARROW_WINDOW;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const sidebarShown = (narrow ? drawerOpen : layout.sidebarOpen) && workspace != null;
  const sessionId = workspace?.sessionId ?? null;
  useEffect(() => setDrawerOpen(false), [sessionId, narrow]);
  useEffect(() => {
    if (!narrow || !drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      // Only when the drawer (or nothing) has the focus: Escape in the chat still stops the agent.
      const focused = document.activeElement;
      const free = focused === null || focused === document.body || focused === document.documentElement;
      if (!free && !focused.closest(`#${SIDEBAR_ID}, .sidebar-toggle`)) return;
      event.preventDefault();
      setDrawerOpen(false);
      document.querySelector<HTMLElement>('.sidebar-toggle')?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Element | null;
      if (target && !target.closest(`#${SIDEBAR_ID}, .sidebar-toggle, dialog`)) setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [narrow, drawerOpen]);
  const sidebarMax = measured
    ? Math.min(SIZE_LIMITS.sidebar.max, bodySize.width - SIZE_LIMITS.plan.min - CHAT_MIN_WIDTH - 2 * SEPARATOR)
    : SIZE_LIMITS.sidebar.max;
  // Over the panes (narrow) the sidebar keeps its own width; beside them it leaves the plan and the chat theirs.
  const sidebarWidth = narrow ? Math.min(layout.sidebar, bodySize.width - 48) : Math.max(SIZE_LIMITS.sidebar.min, Math.min(layout.sidebar, sidebarMax));
  const available = bodySize.width - (sidebarShown && !narrow ? sidebarWidth + SEPARATOR : 0);
  const planMax = measured ? planMaxWidth(available, SEPARATOR) : SIZE_LIMITS.plan.max;
  const planWidth = Math.max(SIZE_LIMITS.plan.min, Math.min(layout.plan, planMax));
  const terminalMax = workSize.height > 0 ? Math.min(SIZE_LIMITS.terminal.max, workSize.height - PANES_MIN_HEIGHT - TERMINAL_BAR) : SIZE_LIMITS.terminal.max;
  const terminalHeight = Math.max(SIZE_LIMITS.terminal.min, Math.min(layout.terminal, terminalMax));

  // Saved settings may have fixed what made the last task fail (the key, say): the status bar's
  // "Error" gives way to Idle rather than stay until the next task.
  const view = settings.view;
  const connection = view ? `${view.apiKey.source}|${view.apiKey.masked}|${view.baseURL}|${view.model}` : null;
  const seenConnection = useRef(connection);
  const { clearError } = status;
  useEffect(() => {
    if (seenConnection.current !== null && connection !== seenConnection.current) clearError();
    seenConnection.current = connection;
  }, [connection, clearError]);

  const current = sessions.sessions?.find((session) => session.id === workspace?.sessionId);
  const trashFolder = app ? `${app.dataDir}${app.dataDir.includes('\\') ? '\\' : '/'}trash` : null;

  return (
    <div className="app">
      {workspace ? (
        <a
          className="skip-link"
          href="#composer-input"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById('composer-input')?.focus();
          }}
        >
          {t('app.skipToComposer')}
        </a>
      ) : null}
      <WorkspaceHeader
        app={app}
        workspace={workspace}
        sessionTitle={current ? sessionTitle(current, t) : null}
        sidebarOpen={sidebarShown}
        sidebarId={SIDEBAR_ID}
        onToggleSidebar={() => (narrow ? setDrawerOpen((value) => !value) : toggle('sidebarOpen'))}
        onOpenFolder={() => void onOpenFolderButton()}
        onOpenSettings={() => setSettingsOpen('top')}
        error={headerError ?? (hostError ? t(hostError === 'no_bridge' ? 'host.noBridge' : 'host.noToken') : null)}
        actions={workspace ? <ChangesButton count={changes.appliedCount} open={changesOpen} onToggle={() => setChangesOpen((value) => !value)} /> : null}
      />
      <div className={`app-body${narrow ? ' is-narrow' : ''}`} ref={body}>
        {sidebarShown && workspace ? (
          <>
            <SessionsSidebar
              id={SIDEBAR_ID}
              width={sidebarWidth}
              workspace={workspace}
              state={sessions}
              trashFolder={trashFolder}
              running={status.running}
              agentState={status.state}
              onOpenFolder={(path) => void openFolder(path)}
            />
            {narrow ? (
              // Dims the panes under the drawer; a click on it closes the drawer (the pointerdown handler above).
              <div className="drawer-scrim" aria-hidden="true" data-testid="drawer-scrim" />
            ) : (
              <Separator
                orientation="vertical"
                label={t('layout.resizeSidebar')}
                controls={SIDEBAR_ID}
                value={sidebarWidth}
                min={SIZE_LIMITS.sidebar.min}
                max={sidebarMax}
                onChange={(value) => resize('sidebar', value)}
                onReset={() => resize('sidebar', DEFAULT_LAYOUT.sidebar)}
              />
            )}
          </>
        ) : null}
        <main className="work-area" ref={work}>
          {workspace ? (
            <>
              <div className="panes">
                <div id="plan-pane" className="plan-pane" style={{ width: planWidth }}>
                  {panes.status === 'ready' ? (
                    <panes.module.PlanBoard key={workspace.sessionId} sessionId={workspace.sessionId} />
                  ) : (
                    <PartFallback part="workspace" state={panes} className="pane-fallback" />
                  )}
                </div>
                <Separator
                  orientation="vertical"
                  label={t('layout.resizePlan')}
                  controls="plan-pane"
                  value={planWidth}
                  min={SIZE_LIMITS.plan.min}
                  max={planMax}
                  onChange={(value) => resize('plan', value)}
                  onReset={() => resize('plan', DEFAULT_LAYOUT.plan)}
                />
                <div className="chat-pane">
                  {panes.status === 'ready' ? (
                    <panes.module.ChatPanel
                      onOpenSettings={() => setSettingsOpen('top')}
                      onConnectModel={connectModel}
                      noApiKey={noApiKey}
                      approvalMode={status.approvalMode}
                    />
                  ) : (
                    <PartFallback part="workspace" state={panes} className="pane-fallback" />
                  )}
                  {changesOpen ? <LazyChangesPanel changes={changes} onClose={() => setChangesOpen(false)} /> : null}
                </div>
              </div>
              <TerminalPanel
                open={layout.terminalOpen}
                height={terminalHeight}
                minHeight={SIZE_LIMITS.terminal.min}
                maxHeight={terminalMax}
                onToggle={() => toggle('terminalOpen')}
                onResize={(value) => resize('terminal', value)}
                onReset={() => resize('terminal', DEFAULT_LAYOUT.terminal)}
              />
            </>
          ) : workspace === null ? (
            <Welcome
              app={app}
              recent={sessions.recent}
              open={openFromField}
              openRecent={openFolder}
              onChoose={() => void onOpenFolderButton()}
              {...(noApiKey ? { onConnectModel: connectModel } : {})}
            />
          ) : null}
        </main>
      </div>
      <StatusBar
        status={status}
        model={settings.view?.model ?? null}
        approvalMode={status.approvalMode}
        hasSession={workspace != null}
        onApprovalMode={status.setApprovalMode}
        contextSettingsKey={settings.view ? `${settings.view.contextWindow}/${settings.view.compactAt}` : ''}
        profile={model.profile}
        onEffort={model.setEffort}
        sandbox={sandbox}
      />
      {settingsOpen ? (
        <LazySettingsDialog
          settings={settings}
          hasSession={workspace != null}
          profile={model.profile}
          onClose={() => setSettingsOpen(false)}
          fallbackFocus={defaultFocus}
          focusKey={settingsOpen === 'connection'}
        />
      ) : null}
      {folderDialogOpen ? (
        <OpenFolderDialog currentPath={workspace?.path ?? null} recent={sessions.recent} open={openFromField} onClose={() => setFolderDialogOpen(false)} />
      ) : null}
    </div>
  );
}
