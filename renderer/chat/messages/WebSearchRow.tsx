import { memo, useId } from 'react';
import type { ChatItem } from '../../../common/chat';
import { hostOf } from '../../../common/webPages';
import { useI18n } from '../../i18n/I18nProvider';
import { useExpanded } from '../chatContext';
import { plural } from '../../i18n/plural';
import { ChevronIcon } from '../../ui/icons';

type WebSearchItem = Extract<ChatItem, { kind: 'web_search' }>;

/**
 * A search the API ran on its side: the query, folded like a tool row, opening to the results'
 * titles and hosts. Nothing of a result is loaded or linked: the window never reaches the web.
 */
export const WebSearchRow = memo(function WebSearchRow({ item }: { item: WebSearchItem }) {
  const { t } = useI18n();
  const [open, setOpen] = useExpanded(item.id, false);
  const id = useId();
  const results = item.results;
  const status = item.errorCode
    ? t('chat.webSearch.failed', { code: item.errorCode })
    : results === undefined
      ? t('chat.webSearch.searching')
      : plural(t, results.length, 'chat.webSearch.result', 'chat.webSearch.results');
  return (
    <div className="chat-notice chat-web-search" data-testid="web-search-row" data-done={results === undefined ? 'false' : 'true'}>
      <button type="button" className="notice-head" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <ChevronIcon open={open} size={12} className="chevron" />
        <span>
          {t('chat.webSearch.query')} <span className="web-search-query">“{item.query}”</span> · {status}
        </span>
      </button>
      {open && (
        <ul id={id} className="notice-text web-search-results" aria-label={t('chat.webSearch.resultsLabel')}>
          {(results ?? []).map((result, index) => (
            <li key={`${index}-${result.url}`} className="web-search-result" title={result.url}>
              <span className="web-search-title">{result.title}</span> <span className="web-search-host">{hostOf(result.url) || result.url}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
