import { useMemo } from 'react';
import type { RequestOutput } from '../../common/contract';
import { diffFromTexts } from '../chat/tools/diffLines';
import { DiffStat, DiffTable } from '../chat/tools/DiffTable';
import { useI18n } from '../i18n/I18nProvider';

type Version = RequestOutput<'helper.openVersion'>;

/** A kept helper's version: where its worktree is, and each changed file, the folder's against the helper's. */
export function HelperVersion({ version }: { version: Version }) {
  const { t } = useI18n();
  return (
    <div className="helper-version">
      <p className="helper-worktree">
        {t('helpers.worktree')} <code>{version.worktree}</code>
      </p>
      {version.files.map((file) => (
        <VersionFile key={file.path} file={file} />
      ))}
    </div>
  );
}

function VersionFile({ file }: { file: Version['files'][number] }) {
  const { t } = useI18n();
  const diff = useMemo(() => (file.theirs === null ? null : diffFromTexts(file.ours ?? '', file.theirs)), [file.ours, file.theirs]);
  return (
    <section className={`helper-version-file${file.conflict ? ' is-conflict' : ''}`} aria-label={file.path}>
      <header className="helper-version-head">
        <span className="helper-file">{file.path}</span>
        {diff && diff.lines.length > 0 ? <DiffStat diff={diff} /> : null}
      </header>
      {diff === null ? (
        <p className="helper-version-note">{t('helpers.fileDeleted', { path: file.path })}</p>
      ) : diff.lines.length === 0 ? (
        <p className="helper-version-note">{t('helpers.fileSame')}</p>
      ) : (
        <DiffTable diff={diff} label={t('helpers.fileDiff', { path: file.path })} />
      )}
    </section>
  );
}
