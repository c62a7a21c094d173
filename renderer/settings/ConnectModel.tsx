import { useId } from 'react';
import { useI18n } from '../i18n/I18nProvider';

/**
 * First contact with no model set up: what the agent needs, and the button that opens Settings
 * on the connection (key, base URL, model, Test).
 */
export function ConnectModel({ onConnect, level = 2 }: { onConnect(): void; /** Its heading's level under the card's own. */ level?: 2 | 3 }) {
  const { t } = useI18n();
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="connect-model" aria-labelledby={id}>
      <Heading id={id} className="connect-model-title">
        {t('connect.title')}
      </Heading>
      <p className="connect-model-text">{t('connect.text')}</p>
      <button type="button" className="button button-primary connect-model-button" onClick={onConnect}>
        {t('connect.button')}
      </button>
    </section>
  );
}
