import type { AppInfo, RecentFolder, WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import { useI18n } from '../i18n/I18nProvider';
import { RecentFolderList } from '../sessions/SessionsSidebar';
import { KeelMark } from '../ui/icons';
import { ConnectModel } from '../settings/ConnectModel';
import { FolderPathField } from './FolderPathField';

interface Props {
  app: AppInfo | null;
  recent: readonly RecentFolder[];
  open(path: string): Promise<Result<WorkspaceInfo>>;
  /** Opening a recent folder; its error is shown by the header. */
  openRecent(path: string): Promise<Result<WorkspaceInfo>>;
  onChoose(): void;
  /** Given when no model is set up: the card offers to connect one. */
  onConnectModel?: () => void;
}

/** The window with no folder open: what Keel is for, and the ways to open a folder. */
export function Welcome({ app, recent, open, openRecent, onChoose, onConnectModel }: Props) {
  const { t } = useI18n();
  return (
    <div className="welcome">
      <div className="welcome-card">
        <KeelMark />
        <h1 className="welcome-title">{t('welcome.title')}</h1>
        <p className="welcome-text">{t('welcome.text')}</p>
        {app === null ? null : app.nativeFolderPicker ? (
          <button type="button" className="button button-primary welcome-open" onClick={onChoose} autoFocus>
            {t('header.openFolder')}
          </button>
        ) : (
          <FolderPathField open={open} visibleLabel autoFocus />
        )}
        {onConnectModel ? <ConnectModel onConnect={onConnectModel} /> : null}
        {recent.length > 0 ? (
          <section className="welcome-recent" aria-labelledby="welcome-recent-title">
            <h3 id="welcome-recent-title" className="section-title">
              {t('folders.recent')}
            </h3>
            <RecentFolderList recent={recent} currentPath={null} onOpen={(path) => void openRecent(path)} />
          </section>
        ) : null}
      </div>
    </div>
  );
}
