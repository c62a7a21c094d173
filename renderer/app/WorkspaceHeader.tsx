import type { ReactNode } from 'react';
import type { AppInfo, WorkspaceInfo } from '../../common/contract';
import { useI18n } from '../i18n/I18nProvider';
import { FolderIcon, KeelMark } from '../ui/icons';
import { GearIcon, SidebarIcon } from '../ui/icons';

interface Props {
  app: AppInfo | null;
  workspace: WorkspaceInfo | null | undefined;
  sessionTitle: string | null;
  sidebarOpen: boolean;
  sidebarId: string;
  onToggleSidebar(): void;
  onOpenFolder(): void;
  onOpenSettings(): void;
  error: string | null;
  /** More buttons at the start of the actions (the Changes button). */
  actions?: ReactNode;
}

/** The window's top line: the open folder and session, Open Folder…, and the settings. */
export function WorkspaceHeader({
  app,
  workspace,
  sessionTitle,
  sidebarOpen,
  sidebarId,
  onToggleSidebar,
  onOpenFolder,
  onOpenSettings,
  error,
  actions,
}: Props) {
  const { t } = useI18n();
  return (
    <header className="app-header">
      <div className="header-bar">
        <div className="brand">
          <KeelMark />
          <span>{t('app.name')}</span>
        </div>
        {workspace ? (
          <button
            type="button"
            className="icon-button header-icon sidebar-toggle"
            aria-expanded={sidebarOpen}
            aria-controls={sidebarOpen ? sidebarId : undefined}
            aria-label={t(sidebarOpen ? 'header.hideSessions' : 'header.showSessions')}
            title={t(sidebarOpen ? 'header.hideSessions' : 'header.showSessions')}
            onClick={onToggleSidebar}
          >
            <SidebarIcon />
          </button>
        ) : null}
        <span className="header-divider" aria-hidden="true" />
        {workspace ? (
          <div className="workspace">
            <FolderIcon />
            <h1 className="workspace-name">{workspace.name}</h1>
            <span className="workspace-path mono" title={workspace.path}>
              {workspace.path}
            </span>
            {sessionTitle ? (
              <>
                <span className="workspace-sep" aria-hidden="true">
                  /
                </span>
                <span className="workspace-session" title={sessionTitle}>
                  <span className="visually-hidden">{t('header.session')} </span>
                  {sessionTitle}
                </span>
              </>
            ) : null}
          </div>
        ) : (
          <div className="workspace workspace-none">{workspace === null ? t('header.noFolder') : ''}</div>
        )}
        <div className="header-actions">
          {actions}
          {app !== null && workspace !== undefined && (workspace !== null || app.nativeFolderPicker) ? (
            <button type="button" className="button" onClick={onOpenFolder} title={t('header.openFolder')}>
              <FolderIcon />
              <span className="header-label">{t('header.openFolder')}</span>
            </button>
          ) : null}
          <button type="button" className="icon-button header-icon" aria-label={t('header.settings')} title={t('header.settings')} onClick={onOpenSettings}>
            <GearIcon />
          </button>
        </div>
      </div>
      {error ? (
        <p role="alert" className="error-message header-error">
          {error}
        </p>
      ) : null}
    </header>
  );
}
