/** Strings of the chat: transcript, tool cards, composer, approvals. */
export const chat = {
  'chat.title': 'Agent',
} as const;
