import { useI18n } from '../../i18n/I18nProvider';

/** The reason the person gave when they denied a call, read back from the result main sent the model. */
export function deniedReason(content: string): string | null {
  const match = /Their reason: ([\s\S]*?) Do not retry it as it was;/.exec(content);
  return match ? match[1]!.trim() || null : null;
}

/** "Not run: you denied it." with the reason they gave, in their words. */
export function DeniedNote({ content, what }: { content: string; what: 'command' | 'change' }) {
  const { t } = useI18n();
  const reason = deniedReason(content);
  return (
    <div className="tool-note denied-note">
      <p>{t(what === 'command' ? 'chat.command.notRun' : 'chat.change.notMade')}</p>
      {reason ? (
        <p className="denied-reason">
          {t('chat.denied.reason')} <q>{reason}</q>
        </p>
      ) : null}
    </div>
  );
}
