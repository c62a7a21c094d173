import { app as enApp } from './en/app';
import { chat as enChat } from './en/chat';
import { app as zhApp } from './zh-CN/app';
import { chat as zhChat } from './zh-CN/chat';

/**
 * Every UI string, per language. Each area keeps its own file (en/, zh-CN/); a zh-CN file is typed
 * by its English twin, so a string missing in one language fails the type-check.
 */
export const en = { ...enApp, ...enChat };
export type MessageKey = keyof typeof en;
export const zhCN: Record<MessageKey, string> = { ...zhApp, ...zhChat };

export const LANGUAGES = { en, 'zh-CN': zhCN } as const;
export type UiLanguage = keyof typeof LANGUAGES;
