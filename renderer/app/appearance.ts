import type { Language, Theme } from '../../common/settings';
import { resolveLanguage } from '../i18n/I18nProvider';
import type { UiLanguage } from '../i18n/messages';

/*
 * Theme and language as the document shows them. The settings live in main; the last ones seen are
 * kept in localStorage only so that the next window starts in the right theme and language before
 * main has answered (no light flash in a dark window).
 */

const CACHE_KEY = 'keel.appearance';

export interface Appearance {
  theme: Theme;
  language: Language;
}

export function cachedAppearance(): Appearance {
  try {
    const raw = JSON.parse(localStorage.getItem(CACHE_KEY) ?? '{}') as Partial<Appearance>;
    const theme: Theme = raw.theme === 'light' || raw.theme === 'dark' ? raw.theme : 'system';
    const language: Language = raw.language === 'en' || raw.language === 'zh-CN' ? raw.language : 'system';
    return { theme, language };
  } catch {
    return { theme: 'system', language: 'system' };
  }
}

export function cacheAppearance(appearance: Appearance): void {
  try {
    localStorage.setItem(CACHE_KEY, JSON.stringify(appearance));
  } catch {
    // Storage may be unavailable (private mode); the settings from main still apply.
  }
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** 'system' follows the OS (prefers-color-scheme). */
export function resolveTheme(theme: Theme, systemDark = darkQuery().matches): 'light' | 'dark' {
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}

/** Calls `listener` whenever the OS switches between light and dark. */
export function onSystemThemeChange(listener: () => void): () => void {
  const query = darkQuery();
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

export function applyTheme(resolved: 'light' | 'dark'): void {
  document.documentElement.dataset.theme = resolved;
}

export function applyLanguage(language: UiLanguage): void {
  document.documentElement.lang = language;
}

/** Before the first render: the cached appearance, resolved against the OS. */
export function applyInitialAppearance(): Appearance {
  const appearance = cachedAppearance();
  applyTheme(resolveTheme(appearance.theme));
  applyLanguage(resolveLanguage(appearance.language));
  return appearance;
}
