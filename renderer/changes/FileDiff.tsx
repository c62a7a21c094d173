import { useMemo, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { parseDiff } from './diff';

/** Rows drawn at first; a diff longer than this shows a button for the rest. */
const FIRST_ROWS = 2000;

/** A unified diff as a table: line numbers from the hunk headers, added and removed lines coloured. */
export function FileDiff({ id, path, diff }: { id: string; path: string; diff: string }) {
  const { t } = useI18n();
  const parsed = useMemo(() => parseDiff(diff), [diff]);
  const [all, setAll] = useState(false);

  if (parsed === null) {
    return (
      <div id={id} className="changes-diff changes-diff-note">
        <p>{diff}</p>
      </div>
    );
  }
  const rows = all ? parsed.rows : parsed.rows.slice(0, FIRST_ROWS);
  return (
    <div id={id} className="changes-diff" role="region" aria-label={t('changes.diffLabel', { path })} tabIndex={0}>
      <table className="diff-table">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">{t('changes.diff.before')}</th>
            <th scope="col">{t('changes.diff.after')}</th>
            <th scope="col">{t('changes.diff.change')}</th>
            <th scope="col">{t('changes.diff.text')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) =>
            row.kind === 'hunk' || row.kind === 'note' ? (
              <tr key={index} className={`diff-${row.kind}`}>
                <td colSpan={4}>{row.text}</td>
              </tr>
            ) : (
              <tr key={index} className={`diff-${row.kind}`}>
                <td className="diff-no">{row.oldNo ?? ''}</td>
                <td className="diff-no">{row.newNo ?? ''}</td>
                <td className="diff-sign">
                  <span aria-hidden="true">{row.kind === 'add' ? '+' : row.kind === 'del' ? '−' : ' '}</span>
                  {row.kind === 'ctx' ? null : <span className="visually-hidden">{t(row.kind === 'add' ? 'changes.diff.added' : 'changes.diff.removed')}</span>}
                </td>
                <td className="diff-text">{row.text}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {!all && parsed.rows.length > FIRST_ROWS ? (
        <button type="button" className="button button-small changes-show-all" onClick={() => setAll(true)}>
          {t('changes.showAll', { count: parsed.rows.length })}
        </button>
      ) : null}
    </div>
  );
}

/** "+3 −1" beside a file's name (null for a binary or huge file). */
export function lineCounts(diff: string): { added: number; removed: number } | null {
  const parsed = parseDiff(diff);
  return parsed ? { added: parsed.added, removed: parsed.removed } : null;
}
