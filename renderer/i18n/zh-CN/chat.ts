import type { chat as en } from '../en/chat';

export const chat: Record<keyof typeof en, string> = {
  'chat.title': '智能体',
};
