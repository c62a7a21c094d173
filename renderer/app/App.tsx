import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Theme } from '../../common/settings';
import { I18nProvider, resolveLanguage } from '../i18n/I18nProvider';
import { applyLanguage, applyTheme, cacheAppearance, cachedAppearance, onSystemThemeChange, resolveTheme } from './appearance';
import { useSettings } from './useSettings';
import { Workbench } from './Workbench';

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;
const onLanguageChange = (listener: () => void) => {
  window.addEventListener('languagechange', listener);
  return () => window.removeEventListener('languagechange', listener);
};
const systemLanguages = () => navigator.languages.join(',');

/**
 * The window: settings decide the theme and the language (each may follow the OS), applied to the
 * document (data-theme, lang) and to every string through the i18n layer, at once when they change.
 */
export function App() {
  const settings = useSettings();
  const [initial] = useState(cachedAppearance);
  const theme: Theme = settings.view?.theme ?? initial.theme;
  const languageSetting = settings.view?.language ?? initial.language;

  const dark = useSyncExternalStore(onSystemThemeChange, systemDark);
  const resolvedTheme = resolveTheme(theme, dark);
  const languages = useSyncExternalStore(onLanguageChange, systemLanguages);
  const language = resolveLanguage(languageSetting, languages.split(','));

  useEffect(() => applyTheme(resolvedTheme), [resolvedTheme]);
  useEffect(() => applyLanguage(language), [language]);
  useEffect(() => {
    if (settings.view) cacheAppearance({ theme, language: languageSetting });
  }, [settings.view, theme, languageSetting]);

  return (
    <I18nProvider language={language}>
      <Workbench settings={settings} />
    </I18nProvider>
  );
}
