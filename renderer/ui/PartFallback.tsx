import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';
import type { LazyState } from './lazyPart';

export type PartName = 'workspace' | 'terminal' | 'markdown' | 'settings' | 'changes';
const PART_NAMES: Record<PartName, MessageKey> = {
  workspace: 'lazy.part.workspace',
  terminal: 'lazy.part.terminal',
  markdown: 'lazy.part.markdown',
  settings: 'lazy.part.settings',
  changes: 'lazy.part.changes',
};

/**
 * What stands in the place of a part whose chunk is not loaded: an empty box that keeps its place
 * (the caller gives it the part's size through `className`) while it loads, and an error with a
 * Reload button if it failed, never a blank area.
 */
export function PartFallback({ part, state, className }: { part: PartName; state: LazyState<unknown>; className?: string }) {
  const { t } = useI18n();
  const classes = `part-fallback${className ? ` ${className}` : ''}`;
  if (state.status !== 'failed') return <div className={classes} aria-busy="true" data-part-loading={part} />;
  return (
    <div className={`${classes} is-failed`} data-part-failed={part}>
      <p role="alert">{t('lazy.failed', { part: t(PART_NAMES[part]) })}</p>
      <button type="button" className="button button-small" onClick={() => window.location.reload()}>
        {t('lazy.reload')}
      </button>
    </div>
  );
}
