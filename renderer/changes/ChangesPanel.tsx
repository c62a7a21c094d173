import { useEffect, useLayoutEffect, useRef } from 'react';
import { CloseIcon } from '../ui/icons';
import { useI18n } from '../i18n/I18nProvider';
import { TaskCard } from './TaskCard';
import { CHANGES_PANEL_ID } from './changesPanelId';
import type { ChangesState } from './useChanges';

/**
 * Every file the agent created, edited or deleted in the open session, by task (newest first),
 * with its diff, undo and redo. It lies over the chat; Escape or the close button closes it.
 */
export function ChangesPanel({ changes, onClose }: { changes: ChangesState; onClose(): void }) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);

  // Focus starts on the heading; when the panel closes with the focus inside, it goes back to the
  // header's Changes button.
  useLayoutEffect(() => {
    heading.current?.focus();
    const element = panel.current;
    return () => {
      const active = document.activeElement;
      if (active === null || active === document.body || element?.contains(active)) {
        document.querySelector<HTMLElement>('.changes-button')?.focus();
      }
    };
  }, []);

  // Escape closes the panel when the focus is in it or nowhere (after a confirmation closed, say),
  // before the chat's Escape (which stops the agent) sees the key; a dialog's Escape is its own.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      const focused = document.activeElement;
      const free = focused === null || focused === document.body || focused === document.documentElement;
      if (!free && !panel.current?.contains(focused)) return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [onClose]);

  const tasks = changes.tasks ? [...changes.tasks].reverse() : null;
  return (
    <section id={CHANGES_PANEL_ID} ref={panel} className="changes-panel" aria-labelledby="changes-title">
      <header className="changes-head">
        <div className="changes-head-text">
          <h2 id="changes-title" className="changes-title" ref={heading} tabIndex={-1}>
            {t('changes.title')}
          </h2>
          <p className="changes-subtitle">{t('changes.subtitle')}</p>
        </div>
        <button type="button" className="icon-button" aria-label={t('changes.close')} title={t('changes.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <div className="changes-scroll">
        {changes.error ? (
          <p role="alert" className="error-message changes-error">
            {changes.error}
          </p>
        ) : null}
        {tasks === null ? (
          changes.error ? null : (
            <p className="changes-loading">{t('changes.loading')}</p>
          )
        ) : tasks.length === 0 ? (
          <div className="changes-empty">
            <p className="changes-empty-title">{t('changes.empty.title')}</p>
            <p className="changes-empty-text">{t('changes.empty.text')}</p>
          </div>
        ) : (
          <ol className="changes-tasks">
            {tasks.map((task) => (
              <TaskCard key={task.taskId} task={task} onStale={changes.refresh} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
