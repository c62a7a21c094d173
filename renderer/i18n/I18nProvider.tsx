import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { UiLanguage } from './messages';
import { translator, type Translate } from './translate';

export { resolveLanguage, translator, type Translate } from './translate';

const I18nContext = createContext<{ language: UiLanguage; t: Translate }>({ language: 'en', t: translator('en') });

export function I18nProvider({ language, children }: { language: UiLanguage; children: ReactNode }) {
  const value = useMemo(() => ({ language, t: translator(language) }), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The one way a component gets its strings: `const { t } = useI18n(); t('chat.title')`. */
export function useI18n(): { language: UiLanguage; t: Translate } {
  return useContext(I18nContext);
}
