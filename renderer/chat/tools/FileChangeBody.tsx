import { useI18n } from '../../i18n/I18nProvider';
import type { ToolApproval } from '../chatStore';
import { diffFromTexts, diffFromUnified, diffOfNewFile, type DiffView } from './diffLines';
import { DeniedNote } from './DeniedNote';
import { DiffTable } from './DiffTable';
import type { ToolItem } from './toolItem';
import { isDenied, stringField } from './toolInfo';

const cache = new WeakMap<object, DiffView | null>();

function cached(key: object, compute: () => DiffView | null): DiffView | null {
  if (!cache.has(key)) cache.set(key, compute());
  return cache.get(key)!;
}

/**
 * The change a write or edit makes: the approval card's diff when one was shown (it has the file's
 * real line numbers), else computed from the call: old_text → new_text, or the new content.
 */
export function fileChangeDiff(item: ToolItem, approval: ToolApproval | undefined): DiffView | null {
  const shown = approval?.request.diff;
  if (shown !== undefined && approval) return cached(approval.request, () => diffFromUnified(shown));
  if (typeof item.input !== 'object' || item.input === null) return null;
  return cached(item.input, () => {
    if (item.name === 'edit_file') {
      const before = stringField(item.input, 'old_text');
      const after = stringField(item.input, 'new_text');
      return before === undefined || after === undefined ? null : diffFromTexts(before, after);
    }
    const content = stringField(item.input, 'content');
    return content === undefined ? null : diffOfNewFile(content);
  });
}

export function FileChangeBody({ item, diff }: { item: ToolItem; diff: DiffView | null }) {
  const { t } = useI18n();
  const path = stringField(item.input, 'path') ?? '';
  const result = item.result;
  return (
    <div className="file-change">
      {result?.isError && (isDenied(result.content) ? <DeniedNote content={result.content} what="change" /> : <p className="tool-error">{result.content}</p>)}
      {diff ? <DiffTable diff={diff} label={t('chat.diff.label', { path })} /> : <p className="tool-note">{t('chat.diff.none')}</p>}
      {result && !result.isError && <p className="tool-note">{result.content}</p>}
    </div>
  );
}
