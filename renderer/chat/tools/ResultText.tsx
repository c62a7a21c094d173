import { useI18n } from '../../i18n/I18nProvider';
import type { ToolItem } from './toolItem';
import { ChatThumbnails } from '../attachments/ChatThumbnail';

const SHOWN_CHARS = 20_000;

/**
 * A tool's result as text (a list of paths, matching lines, anything else), errors in their
 * colour, and the pictures it gave the model (an MCP tool's screenshot) below.
 */
export function ResultText({ item, showInput = false }: { item: ToolItem; showInput?: boolean }) {
  const { t } = useI18n();
  const result = item.result;
  const text = result ? (result.content.length > SHOWN_CHARS ? `${result.content.slice(0, SHOWN_CHARS)}\n…` : result.content) : '';
  return (
    <div className="result-text">
      {showInput && <pre className="tool-input">{JSON.stringify(item.input, null, 2)}</pre>}
      {!result && item.output ? (
        <pre className="tool-output" tabIndex={0} aria-label={t('chat.tool.result')}>
          {item.output.replace(/\n$/, '')}
        </pre>
      ) : !result ? (
        <p className="tool-note">{t('chat.tool.pending')}</p>
      ) : result.isError ? (
        <p className="tool-error">{text}</p>
      ) : (
        <pre className="tool-output" tabIndex={0} aria-label={t('chat.tool.result')}>
          {text}
        </pre>
      )}
      {result && <ChatThumbnails images={result.images} alt={(n) => t('chat.images.toolAlt', { n })} />}
    </div>
  );
}
