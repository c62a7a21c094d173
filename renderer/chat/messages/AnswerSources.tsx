import { memo } from 'react';
import { hostOf, isWebPage } from '../../../common/webPages';
import type { WebSearchHit } from '../../../common/webSearch';
import { useI18n } from '../../i18n/I18nProvider';

/**
 * The web pages an answer cites, numbered in the order first cited: title and host, a link that
 * opens outside the window as the answer's own links do (the host hands it to the browser).
 * Nothing of a page is loaded here: no favicon, no preview.
 */
export const AnswerSources = memo(function AnswerSources({ sources }: { sources: readonly WebSearchHit[] }) {
  const { t } = useI18n();
  return (
    <section className="answer-sources" aria-label={t('chat.sources')} data-testid="answer-sources">
      <h3 className="answer-sources-head">{t('chat.sources')}</h3>
      <ol className="answer-sources-list">
        {sources.map((source) => {
          const host = hostOf(source.url);
          return (
            <li key={source.url} className="answer-source">
              {isWebPage(source.url) ? (
                <a
                  href={source.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={source.url}
                  aria-label={t('chat.sources.opens', { title: source.title, host })}
                >
                  {source.title}
                </a>
              ) : (
                <span title={source.url}>{source.title}</span>
              )}
              {host && <span className="answer-source-host">{host}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
});
