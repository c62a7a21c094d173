import { useI18n } from '../../i18n/I18nProvider';
import { plural } from '../../i18n/plural';
import type { ToolItem } from './toolItem';
import { readContent } from './toolInfo';
import { ChatThumbnails } from '../attachments/ChatThumbnail';

const SHOWN_LINES = 200;

/** What a read showed: the lines with their numbers, and the tool's notes. */
export function ReadBody({ item }: { item: ToolItem }) {
  const { t } = useI18n();
  const result = item.result;
  if (!result) return <p className="tool-note">{t('chat.tool.pending')}</p>;
  if (result.isError) return <p className="tool-error">{result.content}</p>;
  if (result.images?.length) {
    return (
      <div className="read">
        <ChatThumbnails images={result.images} alt={() => t('chat.images.readAlt')} />
        <p className="tool-note">{result.content}</p>
      </div>
    );
  }
  const { lines, notes } = readContent(result.content);
  const shown = lines.slice(0, SHOWN_LINES);
  return (
    <div className="read">
      {shown.length > 0 && (
        <div className="diff-scroll">
          <table className="diff-table read-table">
            <tbody>
              {shown.map((line) => (
                <tr key={line.number} className="diff-context">
                  <td className="diff-num">{line.number}</td>
                  <td className="diff-text">{line.text === '' ? ' ' : line.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {lines.length > shown.length && <p className="tool-note">{plural(t, lines.length - shown.length, 'chat.diff.more.one', 'chat.diff.more')}</p>}
      {notes.map((note, index) => (
        <p key={index} className="tool-note">
          {note}
        </p>
      ))}
    </div>
  );
}
