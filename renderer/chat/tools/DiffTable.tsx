import { useI18n } from '../../i18n/I18nProvider';
import { plural } from '../../i18n/plural';
import type { DiffView } from './diffLines';

const SHOWN_LINES = 400;

/** A diff as the person reads it: line numbers, + and − lines coloured, long diffs cut. */
export function DiffTable({ diff, label }: { diff: DiffView; label: string }) {
  const { t } = useI18n();
  if (diff.lines.length === 0) return <p className="tool-note">{t('chat.diff.empty')}</p>;
  const shown = diff.lines.slice(0, SHOWN_LINES);
  const more = diff.lines.length - shown.length;
  const numbered = diff.lines.some((line) => line.oldNumber !== undefined || line.newNumber !== undefined);
  return (
    <div className="diff" role="group" aria-label={label}>
      {/* Focusable: a diff longer than its box scrolls with the keyboard too. */}
      <div className="diff-scroll" tabIndex={0}>
        <table className="diff-table">
          <tbody>
            {shown.map((line, index) =>
              line.kind === 'hunk' || line.kind === 'note' ? (
                <tr key={index} className={`diff-${line.kind}`}>
                  <td colSpan={numbered ? 4 : 2}>{line.text}</td>
                </tr>
              ) : (
                <tr key={index} className={`diff-${line.kind}`}>
                  {numbered && (
                    <>
                      <td className="diff-num" aria-hidden="true">
                        {line.oldNumber ?? ''}
                      </td>
                      <td className="diff-num" aria-hidden="true">
                        {line.newNumber ?? ''}
                      </td>
                    </>
                  )}
                  <td className="diff-mark">
                    {line.kind === 'context' ? (
                      ' '
                    ) : (
                      <>
                        <span aria-hidden="true">{line.kind === 'add' ? '+' : '−'}</span>
                        <span className="visually-hidden">{t(line.kind === 'add' ? 'chat.diff.added' : 'chat.diff.removed')}</span>
                      </>
                    )}
                  </td>
                  <td className="diff-text">{line.text === '' ? ' ' : line.text}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
      {more > 0 && <p className="tool-note">{plural(t, more, 'chat.diff.more.one', 'chat.diff.more')}</p>}
    </div>
  );
}

/** "+12 −3" */
export function DiffStat({ diff }: { diff: DiffView }) {
  const { t } = useI18n();
  return (
    <span className="diff-stat">
      <span aria-hidden="true">
        <span className="diff-stat-add">+{diff.added}</span> <span className="diff-stat-del">−{diff.removed}</span>
      </span>
      <span className="visually-hidden">{t('chat.diff.stat', { added: diff.added, removed: diff.removed })}</span>
    </span>
  );
}
