import { useI18n } from '../../i18n/I18nProvider';

/** A sent message's text with each `@path` it mentioned shown as a chip. */
export function MentionText({ text, mentions }: { text: string; mentions: readonly string[] | undefined }) {
  const { t } = useI18n();
  if (!mentions?.length) return <>{text}</>;
  const sorted = [...mentions].sort((a, b) => b.length - a.length);
  const parts: (string | { path: string })[] = [];
  let rest = text;
  for (;;) {
    let best: { at: number; path: string } | null = null;
    for (const path of sorted) {
      const at = rest.indexOf(`@${path}`);
      if (at >= 0 && (best === null || at < best.at)) best = { at, path };
    }
    if (!best) break;
    parts.push(rest.slice(0, best.at), { path: best.path });
    rest = rest.slice(best.at + best.path.length + 1);
  }
  parts.push(rest);
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          <span key={index} className="chip chip-accent mention-chip" title={t('chat.mentions.chip')}>
            @{part.path}
          </span>
        ),
      )}
    </>
  );
}
