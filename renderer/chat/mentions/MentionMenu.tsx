import { useI18n } from '../../i18n/I18nProvider';
import type { Mentions } from './useMentions';

/** The completion list above the composer while an `@path` is typed. */
export function MentionMenu({ mentions }: { mentions: Mentions }) {
  const { t } = useI18n();
  if (!mentions.open) return null;
  return (
    <div className="mention-menu">
      <ul id={mentions.listId} role="listbox" aria-label={t('chat.mentions.label')}>
        {mentions.paths.map((path, index) => {
          const slash = path.lastIndexOf('/');
          return (
            <li
              key={path}
              id={mentions.optionId(index)}
              role="option"
              aria-selected={index === mentions.active}
              className={`mention-option${index === mentions.active ? ' is-active' : ''}`}
              // Keeps the focus (and the caret) in the text box.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => mentions.accept(path)}
            >
              <span className="mention-name">{path.slice(slash + 1)}</span>
              {slash > 0 && <span className="mention-folder">{path.slice(0, slash)}</span>}
            </li>
          );
        })}
      </ul>
      {mentions.paths.length === 0 && (
        <p className="mention-empty">{mentions.ready ? t('chat.mentions.none', { query: mentions.query }) : t('chat.mentions.indexing')}</p>
      )}
      <p className="mention-hint">{t('chat.mentions.hint')}</p>
    </div>
  );
}
