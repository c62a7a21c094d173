import { useState } from 'react';
import { FolderIcon, KeelMark } from '../ui/icons';
import { OpenFolderForm } from './OpenFolderForm';
import type { WorkspaceState } from './useWorkspace';

/**
 * The open folder (name and full path), and the way to open one: a native picker in Electron,
 * a typed path in `keel web`.
 */
export function WorkspaceHeader({ app, workspace, open, choose }: WorkspaceState) {
  const [switching, setSwitching] = useState(false);
  const [chooseError, setChooseError] = useState<string | null>(null);
  const native = app?.nativeFolderPicker ?? false;
  const showForm = app !== null && !native && (workspace === null || switching);

  const pick = async () => {
    const result = await choose();
    setChooseError(result.ok ? null : result.error.message);
  };

  return (
    <header className="app-header">
      <div className="header-bar">
        <div className="brand">
          <KeelMark />
          <span>Keel</span>
        </div>
        <span className="header-divider" aria-hidden="true" />
        {workspace ? (
          <div className="workspace">
            <FolderIcon />
            <h1 className="workspace-name">{workspace.name}</h1>
            <span className="workspace-path mono" title={workspace.path}>
              {workspace.path}
            </span>
          </div>
        ) : (
          <div className="workspace workspace-none">{workspace === null ? 'No folder open' : ''}</div>
        )}
        <div className="header-actions">
          {app === null || workspace === undefined ? null : native ? (
            <button type="button" className="button" onClick={() => void pick()}>
              {workspace ? 'Open another folder…' : 'Open Folder…'}
            </button>
          ) : workspace && !switching ? (
            <button type="button" className="button" onClick={() => setSwitching(true)}>
              Open another folder…
            </button>
          ) : null}
        </div>
      </div>
      {showForm ? (
        <OpenFolderForm
          key={workspace?.path ?? ''}
          initialPath={workspace?.path ?? ''}
          open={async (path) => {
            const result = await open(path);
            if (result.ok) setSwitching(false);
            return result;
          }}
          onCancel={workspace ? () => setSwitching(false) : undefined}
        />
      ) : null}
      {chooseError ? (
        <p role="alert" className="error-message header-error">
          {chooseError}
        </p>
      ) : null}
    </header>
  );
}
