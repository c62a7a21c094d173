import type { ChatItem } from '../../../common/chat';

/** A tool call as the chat shows it: the card and each of its bodies take one. */
export type ToolItem = Extract<ChatItem, { kind: 'tool' }>;
