import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { SendIcon, StopIcon } from './icons';
import { useRecall } from './useRecall';
import { ImageAttachments } from './attachments/ImageAttachments';
import { useImageAttachments } from './attachments/useImageAttachments';
import { MentionMenu } from './mentions/MentionMenu';
import { useMentions } from './mentions/useMentions';
import type { ImageAttachment } from '../../common/contract';

export interface ComposerHandle {
  fill(text: string): void;
  focus(): void;
}

interface ComposerProps {
  running: boolean;
  disabled: boolean;
  /** The person's earlier messages in this session, oldest first (for ↑). */
  history: readonly string[];
  onSend(text: string, extras?: { images?: ImageAttachment[]; mentions?: string[] }): Promise<string | null>;
  onStop(): void;
}

const MAX_HEIGHT = 240;

/**
 * Where the person writes. Enter sends, Shift+Enter breaks the line, ↑ at the first line recalls
 * earlier messages. It stays open while the agent works: a message sent then is queued for the
 * agent's next step.
 */
export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer({ running, disabled, history, onSend, onStop }, ref) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const recall = useRecall(history);
  const attachments = useImageAttachments();
  const mentions = useMentions(area, text, setText);

  useImperativeHandle(ref, () => ({
    fill(value) {
      setText(value);
      recall.reset();
      requestAnimationFrame(() => {
        area.current?.focus();
        area.current?.setSelectionRange(value.length, value.length);
      });
    },
    focus: () => area.current?.focus(),
  }));

  // Grows with its text up to MAX_HEIGHT, then scrolls.
  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    const height = Math.min(element.scrollHeight + 2, MAX_HEIGHT);
    element.style.height = `${height}px`;
    element.style.overflowY = element.scrollHeight + 2 > MAX_HEIGHT ? 'auto' : 'hidden';
  }, [text]);

  const send = async () => {
    const message = text.trim();
    if (message === '' || sending || disabled) return;
    setSending(true);
    setError(null);
    setText('');
    recall.reset();
    const images = attachments.forSending();
    const mentioned = mentions.mentionsOf(message);
    const failure = await onSend(message, { ...(images.length ? { images } : {}), ...(mentioned.length ? { mentions: mentioned } : {}) });
    setSending(false);
    if (failure) {
      setError(failure);
      setText((current) => (current === '' ? message : current));
    } else {
      attachments.clear();
      mentions.reset();
    }
  };

  const replace = (value: string, caretAtEnd: boolean) => {
    setText(value);
    requestAnimationFrame(() => {
      const element = area.current;
      if (!element) return;
      const at = caretAtEnd ? value.length : Math.min(value.indexOf('\n') === -1 ? value.length : value.indexOf('\n'), value.length);
      element.setSelectionRange(at, at);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (mentions.onKeyDown(event)) return;
    const element = event.currentTarget;
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      void send();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const beforeCaret = element.value.slice(0, element.selectionStart);
    const afterCaret = element.value.slice(element.selectionEnd);
    if (event.key === 'ArrowUp' && !beforeCaret.includes('\n')) {
      const previous = recall.older(element.value);
      if (previous !== null) {
        event.preventDefault();
        replace(previous, false);
      }
    } else if (event.key === 'ArrowDown' && !afterCaret.includes('\n') && recall.browsing()) {
      const next = recall.newer();
      if (next !== null) {
        event.preventDefault();
        replace(next, true);
      }
    }
  };

  return (
    <form
      className={`composer${running ? ' is-running' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {error && (
        <p className="composer-error error-message" role="alert">
          {error}
        </p>
      )}
      {attachments.problem && (
        <p className="composer-error error-message" role="alert">
          {t(`chat.images.problem.${attachments.problem}`, { max: 4 })}
        </p>
      )}
      <div className="composer-box" onPaste={attachments.onPaste} onDragOver={attachments.onDragOver} onDrop={attachments.onDrop}>
        <MentionMenu mentions={mentions} />
        <ImageAttachments images={attachments.images} onRemove={attachments.remove} />
        <textarea
          ref={area}
          id="composer-input"
          className="composer-input"
          rows={1}
          value={text}
          disabled={disabled}
          aria-label={t('chat.composer.label')}
          placeholder={disabled ? t('chat.composer.noFolder') : running ? t('chat.composer.placeholderRunning') : t('chat.composer.placeholder')}
          onChange={(event) => {
            setText(event.target.value);
            mentions.trackCaret(event.target);
          }}
          onSelect={(event) => mentions.trackCaret(event.currentTarget)}
          onKeyDown={onKeyDown}
          {...mentions.inputProps}
        />
        <div className="composer-bar">
          <span className="composer-hint">{running ? t('chat.composer.hintRunning') : t('chat.composer.hint')}</span>
          {running && (
            <button type="button" className="button button-small button-stop" onClick={onStop} aria-keyshortcuts="Escape">
              <StopIcon />
              {t('chat.stop')}
              <kbd>Esc</kbd>
            </button>
          )}
          <button type="submit" className="button button-small button-primary" disabled={disabled || sending || text.trim() === ''}>
            <SendIcon />
            {running ? t('chat.composer.queue') : t('chat.composer.send')}
          </button>
        </div>
      </div>
    </form>
  );
});
