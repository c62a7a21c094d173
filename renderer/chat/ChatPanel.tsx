import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { ApprovalMode } from '../../common/approvals';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';
import { ApprovalCard } from './ApprovalCard';
import { McpTrustBanner } from './McpTrustBanner';
import { ChatContext, Expansion, type ChatContextValue } from './chatContext';
import { ChatStore } from './chatStore';
import { Composer, type ComposerHandle } from './Composer';
import { EmptyState } from './EmptyState';
import { Transcript } from './Transcript';
import { useAnnouncement } from './useAnnouncement';
import { useFocusRescue } from './useFocusRescue';

export interface ChatPanelProps {
  /** Opens the settings (e.g. from a 401 error card). */
  onOpenSettings: () => void;
  /** Opens the settings at the model's connection (first contact, a refused key). */
  onConnectModel?: () => void;
  /** No API key anywhere (settings or environment): said up front, before a task fails on it. */
  noApiKey?: boolean;
  /** The approval mode in force, which a new session announces (it may be one chosen in another session). */
  approvalMode?: ApprovalMode | null;
}

/** The agent's conversation: transcript, tool cards, approvals and the composer. */
export function ChatPanel({ onOpenSettings, onConnectModel = onOpenSettings, noApiKey = false, approvalMode = null }: ChatPanelProps) {
  const { t } = useI18n();
  const store = useMemo(() => new ChatStore(api), []);
  useEffect(() => store.start(), [store]);
  const chat = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const expansion = useMemo(() => new Expansion(), []);
  const composer = useRef<ComposerHandle>(null);
  const panel = useRef<HTMLElement>(null);

  const context = useMemo<ChatContextValue>(
    () => ({ store, expansion, approvalOf: chat.approvalOf, onOpenSettings, onConnectModel, fillComposer: (text) => composer.current?.fill(text) }),
    [store, expansion, chat.approvalOf, onOpenSettings, onConnectModel],
  );

  // A message of only pictures has nothing ↑ could bring back: its pictures are already in the conversation.
  const history = useMemo(
    () => chat.items.flatMap((item) => (item.kind === 'user' && item.text !== '' ? [{ text: item.text, mentions: item.mentions ?? [] }] : [])),
    [chat.items],
  );

  // Esc stops the task when focus is in the chat, or when nothing else has it (and nobody handled the key).
  const running = chat.running;
  useEffect(() => {
    if (!running) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focused = document.activeElement;
      const free = focused === null || focused === document.body || focused === document.documentElement;
      if (!free && !panel.current?.contains(focused)) return;
      event.preventDefault();
      // The focus goes (or stays) where the person goes on: the message box.
      composer.current?.focus();
      void store.stop();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [running, store]);

  // The message box has the focus when a session opens, unless something else took it already.
  const sessionId = chat.workspace?.sessionId ?? null;
  useEffect(() => {
    const focused = document.activeElement;
    if (sessionId !== null && (focused === null || focused === document.body)) composer.current?.focus();
  }, [sessionId]);

  // An answered card or a Stop button that goes away hands the focus to the next card, else the message box.
  useFocusRescue(panel, () => panel.current?.querySelector<HTMLElement>('.approval-card') ?? composer.current, [chat.approvals, chat.running]);

  const announcement = useAnnouncement(chat);
  const hasFolder = Boolean(chat.workspace);
  const empty = chat.loaded && chat.items.length === 0 && !chat.running;

  return (
    <ChatContext.Provider value={context}>
      <section ref={panel} aria-label={t('chat.title')} className="chat-panel" data-agent-running={chat.running ? 'true' : 'false'}>
        <div className="chat-body">
          {empty || chat.workspace === null ? (
            <EmptyState hasFolder={hasFolder} approvalMode={approvalMode} noApiKey={noApiKey} />
          ) : (
            <Transcript
              key={chat.workspace?.sessionId ?? 'none'}
              items={chat.items}
              running={chat.running}
              state={chat.state}
              plan={chat.plan}
              unfinished={chat.unfinished}
              retry={chat.retry}
            />
          )}
        </div>
        {noApiKey && chat.workspace && chat.loaded && !empty ? (
          <div className="no-key-banner" role="note">
            <p>
              <strong>{t('chat.noKey.title')}</strong> {t('chat.noKey.text')}
            </p>
            <button type="button" className="button button-small" onClick={onConnectModel}>
              {t('chat.noKey.open')}
            </button>
          </div>
        ) : null}
        {chat.workspace ? <McpTrustBanner key={chat.workspace.path} onOpenSettings={onOpenSettings} /> : null}
        {chat.approvals.length > 0 && (
          <div className="approval-dock">
            {chat.approvals.map((request, index) => (
              <ApprovalCard key={request.id} request={request} autoFocus={index === 0} />
            ))}
          </div>
        )}
        <Composer
          ref={composer}
          running={chat.running}
          disabled={chat.workspace === null}
          history={history}
          onSend={(text, extras) => store.send(text, extras)}
          onStop={() => {
            composer.current?.focus();
            void store.stop();
          }}
          onAttach={attachPaste}
        />
        <div className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </div>
      </section>
    </ChatContext.Provider>
  );
}

/** A paste too long for a message becomes a workspace file (paste.save); the message names it. */
async function attachPaste(text: string): Promise<{ path: string } | { error: string }> {
  const saved = await api.request('paste.save', { text });
  return saved.ok ? { path: saved.value.path } : { error: saved.error.message };
}
