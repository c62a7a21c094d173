import { memo } from 'react';
import type { ChatItem } from '../../../common/chat';
import { Markdown } from '../markdown/Markdown';
import { AnswerSources } from './AnswerSources';

type AssistantItem = Extract<ChatItem, { kind: 'assistant' }>;

/** The model's words, as markdown (while they stream only the open block is rendered again), and the pages they cite. */
export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem }) {
  return (
    <div className={`chat-assistant${item.streaming ? ' is-streaming' : ''}`} data-streaming={item.streaming ? 'true' : undefined}>
      <Markdown text={item.text} streaming={item.streaming === true} />
      {item.sources && item.sources.length > 0 && <AnswerSources sources={item.sources} />}
    </div>
  );
});
