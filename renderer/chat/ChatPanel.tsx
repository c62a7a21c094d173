import { useI18n } from '../i18n/I18nProvider';

export interface ChatPanelProps {
  /** Opens the settings (e.g. from a 401 error card). */
  onOpenSettings: () => void;
}

/** The agent's conversation: transcript, tool cards, approvals and the composer. */
export function ChatPanel(_props: ChatPanelProps) {
  const { t } = useI18n();
  return <section aria-label={t('chat.title')} className="chat-panel" />;
}
