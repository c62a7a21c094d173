import { useI18n } from '../../i18n/I18nProvider';
import { CopyButton } from '../CopyButton';

/** A fenced code block: highlighted (sanitized) HTML, its language and a copy button. */
export function CodeBlock({ lang, code, html, open }: { lang: string; code: string; html: string; open: boolean }) {
  const { t } = useI18n();
  return (
    <div className="md-code" data-lang={lang || undefined}>
      <div className="md-code-head">
        <span className="md-code-lang">{lang || t('chat.code.plain')}</span>
        {!open && <CopyButton text={code} label={t('chat.code.copy')} />}
      </div>
      <pre>
        <code className={lang ? `hljs language-${lang}` : 'hljs'} dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </div>
  );
}
