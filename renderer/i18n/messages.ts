import { app as enApp } from './en/app';
import { chat as enChat } from './en/chat';
import { app as zhApp } from './zh-CN/app';
import { chat as zhChat } from './zh-CN/chat';
import { plan as enPlan } from './en/plan';
import { settings as enSettings } from './en/settings';
import { plan as zhPlan } from './zh-CN/plan';
import { settings as zhSettings } from './zh-CN/settings';
import { changes as enChanges } from './en/changes';
import { changes as zhChanges } from './zh-CN/changes';
import { terminal as enTerminal } from './en/terminal';
import { terminal as zhTerminal } from './zh-CN/terminal';
import { context as enContext } from './en/context';
import { context as zhContext } from './zh-CN/context';
import { mcp as enMcp } from './en/mcp';
import { mcp as zhMcp } from './zh-CN/mcp';
import { status as enStatus } from './en/status';
import { status as zhStatus } from './zh-CN/status';
import { profile as enProfile } from './en/profile';
import { profile as zhProfile } from './zh-CN/profile';
import { helpers as enHelpers } from './en/helpers';
import { helpers as zhHelpers } from './zh-CN/helpers';

/**
 * Every UI string, per language. Each area keeps its own file (en/, zh-CN/); a zh-CN file is typed
 * by its English twin, so a string missing in one language fails the type-check.
 */
export const en = {
  ...enApp,
  ...enChat,
  ...enPlan,
  ...enSettings,
  ...enTerminal,
  ...enChanges,
  ...enContext,
  ...enMcp,
  ...enStatus,
  ...enProfile,
  ...enHelpers,
};
export type MessageKey = keyof typeof en;
export const zhCN: Record<MessageKey, string> = {
  ...zhApp,
  ...zhChat,
  ...zhPlan,
  ...zhSettings,
  ...zhTerminal,
  ...zhChanges,
  ...zhContext,
  ...zhMcp,
  ...zhStatus,
  ...zhProfile,
  ...zhHelpers,
};

export const LANGUAGES = { en, 'zh-CN': zhCN } as const;
export type UiLanguage = keyof typeof LANGUAGES;
