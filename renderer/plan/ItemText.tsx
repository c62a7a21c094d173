import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { inlineCodeParts } from './inlineCode';

interface Props {
  content: string;
  editing: boolean;
  onStartEdit(): void;
  onStopEdit(): void;
  /** Resolves true when main stored the new wording (or nothing changed). */
  onSave(content: string): Promise<boolean>;
  hintId: string;
  /** The editor's accessible name; default "Reword "<content>"". */
  label?: string;
}

/**
 * The item's text: a button that opens an inline editor (click, Enter or F2). In the editor Enter
 * or leaving the field saves and Escape cancels. A refused wording keeps the editor open with the
 * draft, so the person can correct it; the row shows the validator's message.
 */
export function ItemText({ content, editing, onStartEdit, onStopEdit, onSave, hintId, label }: Props) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(content);
  const saving = useRef(false);
  /** Set once the editor is done (saved or cancelled): the blur that follows must not save again. */
  const closed = useRef(false);
  const textButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);

  useEffect(() => {
    // Closing the editor removes the focused field: give focus back to the text, unless the
    // person already moved it elsewhere.
    if (wasEditing.current && !editing && (document.activeElement === null || document.activeElement === document.body)) {
      textButton.current?.focus();
    }
    wasEditing.current = editing;
  }, [editing]);

  const start = () => {
    closed.current = false;
    setDraft(content);
    onStartEdit();
  };

  const save = async () => {
    if (saving.current || closed.current) return;
    saving.current = true;
    const stored = await onSave(draft);
    saving.current = false;
    if (stored) {
      closed.current = true;
      onStopEdit();
    }
  };

  const onEditorKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closed.current = true;
      onStopEdit();
    }
  };

  if (editing) {
    return (
      <input
        className="item-editor"
        aria-label={label ?? t('plan.item.reword', { content })}
        value={draft}
        data-part="editor"
        autoFocus
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onEditorKey}
        onBlur={() => void save()}
        spellCheck
      />
    );
  }
  return (
    <button
      type="button"
      className="item-text"
      data-part="text"
      aria-describedby={hintId}
      title={t('plan.item.rewordTitle')}
      ref={textButton}
      onClick={start}
      onKeyDown={(event) => {
        if (event.key === 'F2') {
          event.preventDefault();
          start();
        }
      }}
    >
      {inlineCodeParts(content).map((part, index) => (part.code ? <code key={index}>{part.text}</code> : part.text))}
    </button>
  );
}
