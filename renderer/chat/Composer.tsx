import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { LIMITS } from '../../common/limits';
import { useI18n } from '../i18n/I18nProvider';
import { SendIcon, StopIcon } from '../ui/icons';
import { useRecall, type RecalledMessage } from './useRecall';
import { ImageAttachments } from './attachments/ImageAttachments';
import { useImageAttachments } from './attachments/useImageAttachments';
import { MentionMenu } from './mentions/MentionMenu';
import { useMentions } from './mentions/useMentions';
import { useCaretAfterRender } from './useCaretAfterRender';
import type { ImageAttachment } from '../../common/contract';

export interface ComposerHandle {
  fill(text: string): void;
  focus(): void;
}

interface ComposerProps {
  running: boolean;
  disabled: boolean;
  /** The person's earlier messages in this session, oldest first (for ↑). */
  history: readonly RecalledMessage[];
  onSend(text: string, extras?: { images?: ImageAttachment[]; mentions?: string[] }): Promise<string | null>;
  onStop(): void;
  /** Saves a text too long for a message as a file in the workspace: its path, or why not. */
  onAttach(text: string): Promise<{ path: string } | { error: string }>;
}

const formatCount = (n: number) => n.toLocaleString('en-US');

const MAX_HEIGHT = 240;

/**
 * Where the person writes. Enter sends, Shift+Enter breaks the line, ↑ at the first line recalls
 * earlier messages. It stays open while the agent works: a message sent then is queued for the
 * agent's next step.
 */
export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer({ running, disabled, history, onSend, onStop, onAttach }, ref) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  /** A paste that would make the message too long, held aside rather than put in the box. */
  const [heldPaste, setHeldPaste] = useState<string | null>(null);
  const [attaching, setAttaching] = useState(false);
  const draftTooLong = text.trim().length > LIMITS.messageChars;
  const oversize = heldPaste ?? (draftTooLong ? text : null);
  const area = useRef<HTMLTextAreaElement>(null);
  const recall = useRecall(history);
  const attachments = useImageAttachments();
  const mentions = useMentions(area, text, setText);
  const placeCaret = useCaretAfterRender(area);

  useImperativeHandle(ref, () => ({
    fill(value) {
      setText(value);
      recall.reset();
      placeCaret(value.length, true);
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

  // A pasted screenshot alone is a message: the picture says what the words would.
  const empty = text.trim() === '' && attachments.images.length === 0;

  const send = async () => {
    const message = text.trim();
    if (empty || sending || disabled || message.length > LIMITS.messageChars) return;
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

  // The window enforces the contract's limit before sending: a long paste is offered as a file instead.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = event.clipboardData.getData('text/plain');
    const element = event.currentTarget;
    const resulting = element.value.length - (element.selectionEnd - element.selectionStart) + pasted.length;
    if (resulting <= LIMITS.messageChars) return;
    event.preventDefault();
    setError(null);
    setHeldPaste(pasted);
  };

  const attach = async () => {
    if (oversize === null || attaching) return;
    const fromPaste = heldPaste !== null;
    setAttaching(true);
    setError(null);
    const saved = await onAttach(oversize);
    setAttaching(false);
    if ('error' in saved) {
      setError(t('chat.composer.attachFailed', { message: saved.error }));
      return;
    }
    const reference = t('chat.composer.attachedReference', { count: formatCount(oversize.length), path: saved.path });
    setHeldPaste(null);
    const next = fromPaste ? `${text.trimEnd()}${text.trim() === '' ? '' : '\n'}${reference}\n` : `${reference}\n`;
    setText(next);
    placeCaret(next.length, true);
  };

  const replace = ({ text: value, mentions: mentioned }: RecalledMessage, caretAtEnd: boolean) => {
    setText(value);
    mentions.restore(mentioned);
    placeCaret(caretAtEnd || !value.includes('\n') ? value.length : value.indexOf('\n'));
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
      const previous = recall.older({ text: element.value, mentions: mentions.mentionsOf(element.value) });
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
      {oversize !== null && (
        <div className="composer-oversize" role="alert">
          <p className="composer-oversize-text">
            <strong>{t('chat.composer.tooLong', { count: formatCount(oversize.length), limit: formatCount(LIMITS.messageChars) })}</strong>{' '}
            {t('chat.composer.tooLongHelp')}
          </p>
          <div className="composer-oversize-actions">
            <button type="button" className="button button-small button-primary" onClick={() => void attach()} disabled={attaching || disabled}>
              {attaching ? t('chat.composer.attaching') : t('chat.composer.attach')}
            </button>
            {heldPaste !== null && (
              <button type="button" className="button button-small" onClick={() => setHeldPaste(null)} disabled={attaching}>
                {t('chat.composer.discardPaste')}
              </button>
            )}
          </div>
        </div>
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
          onPaste={onPaste}
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
          <button type="submit" className="button button-small button-primary" disabled={disabled || sending || empty || draftTooLong}>
            <SendIcon />
            {running ? t('chat.composer.queue') : t('chat.composer.send')}
          </button>
        </div>
      </div>
    </form>
  );
});
