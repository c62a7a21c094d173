import type { Language } from '../../common/settings';
import { LANGUAGES, type MessageKey, type UiLanguage } from './messages';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** 'system' follows the OS (browser) locale: any Chinese locale gets 简体中文, anything else English. */
export function resolveLanguage(setting: Language, preferred: readonly string[] = navigator.languages): UiLanguage {
  if (setting !== 'system') return setting;
  return preferred.some((tag) => tag.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

export function translator(language: UiLanguage): Translate {
  const table = LANGUAGES[language];
  return (key, params) => {
    const text = table[key] ?? LANGUAGES.en[key] ?? key;
    return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
  };
}
