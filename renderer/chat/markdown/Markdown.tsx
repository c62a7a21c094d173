import { memo, useMemo, useRef } from 'react';
import { CodeBlock } from './CodeBlock';
import { markdownPart } from './markdownPart';
import { splitBlocks, type BlockSplit } from './splitBlocks';

/**
 * Markdown rendered block by block. While an answer streams, only its last (open) block is parsed
 * again: the finished blocks keep their source string, so their memoized render is reused.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const split = useRef<BlockSplit | undefined>(undefined);
  const current = useMemo(() => {
    const next = splitBlocks(text, split.current);
    return next;
  }, [text]);
  split.current = current;
  const last = current.blocks.length - 1;
  return (
    <div className="markdown">
      {current.blocks.map((source, index) => (
        <MarkdownBlock key={`${index}`} source={source} open={streaming && index === last} />
      ))}
    </div>
  );
}

const MarkdownBlock = memo(function MarkdownBlock({ source, open }: { source: string; open: boolean }) {
  // The transcript waits for the chunk before it shows an answer (see Transcript); plain text is only a guard.
  const renderBlock = markdownPart.module?.renderBlock;
  const parts = useMemo(() => (renderBlock ? renderBlock(source) : [{ kind: 'plain' as const, text: source }]), [renderBlock, source]);
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'plain' ? (
          <div key={index} className="md-block md-plain">
            {part.text}
          </div>
        ) : part.kind === 'code' ? (
          <CodeBlock key={index} lang={part.lang} code={part.code} html={part.html} open={open && index === parts.length - 1} />
        ) : (
          <div key={index} className="md-block" dangerouslySetInnerHTML={{ __html: part.html }} />
        ),
      )}
    </>
  );
});
