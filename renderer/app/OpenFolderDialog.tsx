import type { RecentFolder, WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import { useI18n } from '../i18n/I18nProvider';
import { RecentFolderList } from '../sessions/SessionsSidebar';
import { Dialog } from '../ui/Dialog';
import { FolderPathField } from './FolderPathField';
import { CloseIcon } from '../ui/icons';

interface Props {
  currentPath: string | null;
  recent: readonly RecentFolder[];
  open(path: string): Promise<Result<WorkspaceInfo>>;
  onClose(): void;
}

/** "Open Folder…" in `keel web`: a typed path with completion, or one of the recent folders. */
export function OpenFolderDialog({ currentPath, recent, open, onClose }: Props) {
  const { t } = useI18n();
  const openAndClose = async (path: string) => {
    const result = await open(path);
    if (result.ok) onClose();
    return result;
  };
  const others = recent.filter((folder) => folder.path !== currentPath);
  return (
    <Dialog labelledBy="open-folder-title" onClose={onClose} className="dialog-medium">
      <div className="dialog-head">
        <h2 id="open-folder-title" className="dialog-title">
          {t('folders.dialogTitle')}
        </h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <div className="dialog-body">
        <p className="dialog-text">{t('folders.dialogHint')}</p>
        <FolderPathField initialPath={currentPath ? parentOf(currentPath) : ''} open={openAndClose} autoFocus visibleLabel />
        {others.length > 0 ? (
          <section className="dialog-section" aria-labelledby="open-folder-recent">
            <h3 id="open-folder-recent" className="section-title">
              {t('folders.recent')}
            </h3>
            <RecentFolderList recent={others} currentPath={currentPath} onOpen={(path) => void openAndClose(path)} />
          </section>
        ) : null}
      </div>
    </Dialog>
  );
}

/** "/home/me/project" → "/home/me/": where a sibling folder is typed. */
function parentOf(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? trimmed : trimmed.slice(0, cut + 1);
}
