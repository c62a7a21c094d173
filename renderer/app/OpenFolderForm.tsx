import { useState, type FormEvent } from 'react';
import type { WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';

interface Props {
  initialPath?: string;
  open(path: string): Promise<Result<WorkspaceInfo>>;
  /** Offered when a folder is already open. */
  onCancel?: () => void;
}

/** `keel web` has no native picker: the person types the folder's path. */
export function OpenFolderForm({ initialPath = '', open, onCancel }: Props) {
  const [path, setPath] = useState(initialPath);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (path.trim() === '') {
      setError('Type the full path of a folder, for example /home/you/project.');
      return;
    }
    setBusy(true);
    const result = await open(path.trim());
    setBusy(false);
    setError(result.ok ? null : result.error.message);
  };

  return (
    <form className="open-folder" onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <div className="open-folder-row">
        <label className="visually-hidden" htmlFor="folder-path">
          Folder path
        </label>
        <input
          id="folder-path"
          className="text-input mono"
          placeholder="/path/to/a/folder"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && onCancel) onCancel();
          }}
          autoComplete="off"
          spellCheck={false}
          autoFocus={onCancel !== undefined}
          aria-invalid={error !== null}
          aria-describedby={error ? 'folder-path-error' : undefined}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          Open folder
        </button>
        {onCancel ? (
          <button type="button" className="button button-ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" id="folder-path-error" className="error-message open-folder-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
