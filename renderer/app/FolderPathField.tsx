import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';
import { plural } from '../i18n/plural';
import { pointerMoved } from '../ui/pointerMoved';

interface Props {
  initialPath?: string;
  open(path: string): Promise<Result<WorkspaceInfo>>;
  /** Offered when a folder is already open (Escape too). */
  onCancel?: () => void;
  autoFocus?: boolean;
  /** Show the label above the field rather than only to assistive technology. */
  visibleLabel?: boolean;
}

const COMPLETION_DELAY_MS = 60;

/**
 * `keel web` has no native picker: the person types the folder's path, helped by completion from
 * `folders.complete`. A WAI-ARIA combobox with a listbox popup: ↓/↑ move through the folders,
 * Enter takes the highlighted one (and lists what is inside it), Tab the highlighted or else the
 * first one shown, Escape closes the list,
 * Enter with nothing highlighted opens the folder.
 */
export function FolderPathField({ initialPath = '', open, onCancel, autoFocus = false, visibleLabel = false }: Props) {
  const { t } = useI18n();
  const [path, setPath] = useState(initialPath);
  const [options, setOptions] = useState<string[]>([]);
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (active < 0) return;
    list.current?.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView({ block: 'nearest' });
  });

  const complete = (partial: string, show: boolean) => {
    const ask = ++asked.current;
    if (partial.trim() === '') {
      setOptions([]);
      setActive(-1);
      return;
    }
    window.setTimeout(() => {
      if (ask !== asked.current) return;
      void api.request('folders.complete', { partial }).then((result) => {
        if (ask !== asked.current) return; // a later keystroke asked again
        const found = result.ok ? result.value : [];
        setOptions(found);
        setActive(-1);
        if (show) setExpanded(found.length > 0);
      });
    }, COMPLETION_DELAY_MS);
  };

  useEffect(() => {
    // A prefilled path has its completions ready for ↓, without opening the list (once).
    if (initialPath !== '') complete(initialPath, false);
  }, []);

  const take = (index: number) => {
    const chosen = options[index];
    if (chosen === undefined) return;
    setPath(chosen);
    setError(null);
    // Closed until the chosen folder's own folders arrive (if it has any): a quick second Enter opens it.
    setExpanded(false);
    setActive(-1);
    complete(chosen, true);
    input.current?.focus();
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setExpanded(false);
    if (path.trim() === '') {
      setError(t('folders.pathRequired'));
      return;
    }
    setBusy(true);
    const result = await open(path.trim());
    setBusy(false);
    setError(result.ok ? null : result.error.message);
  };

  const showing = expanded && options.length > 0;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const last = options.length - 1;
      if (!showing) {
        setExpanded(true);
        setActive(event.key === 'ArrowDown' ? 0 : last);
        return;
      }
      setActive((index) => (event.key === 'ArrowDown' ? (index >= last ? 0 : index + 1) : index <= 0 ? last : index - 1));
    } else if (event.key === 'Enter' && showing && active >= 0) {
      event.preventDefault();
      take(active);
    } else if (event.key === 'Tab' && !event.shiftKey && showing) {
      // Tab accepts the suggestion shown: the highlighted one, else the first, as a shell completes.
      event.preventDefault();
      take(active >= 0 ? active : 0);
    } else if (event.key === 'Escape') {
      if (showing) {
        event.preventDefault();
        event.stopPropagation();
        setExpanded(false);
        setActive(-1);
      } else if (onCancel) {
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }
    }
  };

  const errorId = `${listId}-error`;
  return (
    <form className="folder-form" onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <label className={visibleLabel ? 'field-label' : 'visually-hidden'} htmlFor={`${listId}-input`}>
        {t('folders.pathLabel')}
      </label>
      <div className="folder-form-row">
        <div className="combobox">
          <input
            id={`${listId}-input`}
            ref={input}
            className="text-input mono"
            role="combobox"
            aria-expanded={showing}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={showing && active >= 0 ? optionId(active) : undefined}
            placeholder={t('folders.pathPlaceholder')}
            value={path}
            onChange={(event) => {
              setPath(event.target.value);
              complete(event.target.value, true);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setExpanded(false)}
            autoComplete="off"
            spellCheck={false}
            autoFocus={autoFocus}
            data-autofocus={autoFocus ? '' : undefined}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
          />
          <ul id={listId} ref={list} role="listbox" aria-label={t('folders.suggestions')} className="listbox" hidden={!showing}>
            {options.map((option, index) => (
              <li
                key={option}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="listbox-option mono"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => take(index)}
                onMouseMove={(event) => {
                  if (pointerMoved(event)) setActive(index);
                }}
              >
                <FolderPathText path={option} />
              </li>
            ))}
          </ul>
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('folders.open')}
        </button>
        {onCancel ? (
          <button type="button" className="button button-ghost" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {showing ? plural(t, options.length, 'folders.suggestionCount.one', 'folders.suggestionCount') : ''}
      </p>
      {error ? (
        <p role="alert" id={errorId} className="error-message folder-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** A completed path with its last folder name stressed. */
function FolderPathText({ path }: { path: string }) {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1;
  return (
    <>
      <span className="listbox-dim">{trimmed.slice(0, cut)}</span>
      <span className="listbox-strong">{trimmed.slice(cut)}</span>
      <span className="listbox-dim">{path.slice(trimmed.length)}</span>
    </>
  );
}
