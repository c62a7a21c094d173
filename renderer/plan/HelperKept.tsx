import { useState } from 'react';
import type { HelperInfo } from '../../common/helpers';
import type { RequestOutput } from '../../common/contract';
import type { Result } from '../../common/result';
import type { HelperStore } from '../helpers/helperStore';
import { useI18n } from '../i18n/I18nProvider';
import { HelperVersion } from './HelperVersion';

type Version = RequestOutput<'helper.openVersion'>;

/**
 * A helper whose changes wait in its worktree (a conflict, or it failed or was stopped after
 * changing files): which files, and what the person can do with them: look at its version, merge
 * it (again three-way, taking its version, or with conflict markers), or discard it.
 */
export function HelperKept({ info, store }: { info: HelperInfo; store: HelperStore }) {
  const { t } = useI18n();
  const [version, setVersion] = useState<Version | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const owner = info.id;
  const conflict = info.merge === 'conflict';
  const files = conflict && info.conflictFiles.length > 0 ? info.conflictFiles : info.changedFiles;

  const run = async <T,>(request: () => Promise<Result<T>>): Promise<T | null> => {
    setBusy(true);
    setProblem(null);
    const result = await request();
    setBusy(false);
    if (result.ok) return result.value;
    setProblem(result.error.message);
    return null;
  };

  const open = async () => {
    if (version) return setVersion(null);
    setVersion(await run(() => store.openVersion(owner)));
  };

  return (
    <div className={`helper-kept${conflict ? ' is-conflict' : ''}`}>
      <p className="helper-kept-title">{t(conflict ? 'helpers.conflictTitle' : 'helpers.keptTitle')}</p>
      <ul className="helper-files">
        {files.map((path) => (
          <li key={path} className="helper-file">
            {path}
          </li>
        ))}
      </ul>
      <div className="helper-actions">
        <button
          type="button"
          className="button button-small"
          aria-label={t(version ? 'helpers.closeLabel' : 'helpers.openLabel', { owner })}
          aria-expanded={version !== null}
          disabled={busy}
          onClick={() => void open()}
        >
          {t(version ? 'helpers.close' : 'helpers.open')}
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          title={t('helpers.mergeRetryTitle')}
          disabled={busy}
          onClick={() => void run(() => store.merge(owner, 'three_way'))}
        >
          {t('helpers.mergeRetry')}
        </button>
        {conflict ? (
          <>
            <button
              type="button"
              className="button button-small"
              title={t('helpers.mergeTheirsTitle')}
              disabled={busy}
              onClick={() => void run(() => store.merge(owner, 'theirs'))}
            >
              {t('helpers.mergeTheirs')}
            </button>
            <button
              type="button"
              className="button button-small"
              title={t('helpers.mergeMarkersTitle')}
              disabled={busy}
              onClick={() => void run(() => store.merge(owner, 'markers'))}
            >
              {t('helpers.mergeMarkers')}
            </button>
          </>
        ) : null}
        <button
          type="button"
          className="button button-small button-danger"
          title={t('helpers.discardTitle')}
          disabled={busy}
          onClick={() => void run(() => store.discard(owner))}
        >
          {t('helpers.discard')}
        </button>
      </div>
      {problem ? (
        <p role="alert" className="helper-problem">
          {problem}
        </p>
      ) : null}
      {version ? <HelperVersion version={version} /> : null}
    </div>
  );
}
