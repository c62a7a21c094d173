/**
 * Splits markdown into top-level blocks so that a streaming answer is parsed incrementally:
 * every block but the last is finished (the text after it can no longer change how it parses),
 * only the last one is still open.
 *
 * A block ends at a blank line outside a fenced code block when the next line starts at the
 * margin. Indented lines after a blank line stay in the block (a list item's second paragraph,
 * an indented code block), and so does everything inside a fence.
 */
export interface BlockSplit {
  /** The text that was split. */
  readonly text: string;
  /** The blocks, in order; joined they give `text`. The last one is open. */
  readonly blocks: readonly string[];
  /** Where each block starts in `text`. */
  readonly starts: readonly number[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string, previous?: BlockSplit): BlockSplit {
  // Streaming only appends: keep the finished blocks and scan again from the open one.
  if (previous && previous.blocks.length > 0 && text.startsWith(previous.text)) {
    const keep = previous.blocks.length - 1;
    return scan(text, previous.starts[keep]!, previous.blocks.slice(0, keep), previous.starts.slice(0, keep));
  }
  return scan(text, 0, [], []);
}

function scan(text: string, from: number, blocks: string[], starts: number[]): BlockSplit {
  let blockStart = from;
  let fence: string | null = null;
  let afterBlank = false;
  let position = from;
  while (position < text.length) {
    const newline = text.indexOf('\n', position);
    const end = newline === -1 ? text.length : newline + 1;
    const line = text.slice(position, newline === -1 ? text.length : newline);
    if (fence !== null) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length && line.trim() === close[1]) fence = null;
    } else if (line.trim() === '') {
      afterBlank = true;
    } else {
      if (afterBlank && position > blockStart && !/^[ \t]/.test(line)) {
        blocks.push(text.slice(blockStart, position));
        starts.push(blockStart);
        blockStart = position;
      }
      afterBlank = false;
      const open = FENCE.exec(line);
      // A backtick fence's info string may not contain backticks (CommonMark).
      if (open && !(open[1]![0] === '`' && line.slice(line.indexOf(open[1]!) + open[1]!.length).includes('`'))) fence = open[1]!;
    }
    position = end;
  }
  blocks.push(text.slice(blockStart));
  starts.push(blockStart);
  return { text, blocks, starts };
}
