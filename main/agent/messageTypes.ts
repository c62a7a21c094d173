import type { AssistantMessageParam, UserMessageParam } from '@anthropic-ai/sdk/resources/messages';

/** A turn of the conversation as Keel keeps it: the person's side or the model's, never a system turn. */
export type ChatMessage = UserMessageParam | AssistantMessageParam;
