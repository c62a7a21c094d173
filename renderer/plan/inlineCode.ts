/** A piece of a step's text: plain, or what the model put between backticks. */
export interface TextPart {
  code: boolean;
  text: string;
}

/**
 * Splits a step's text at its `code` spans, as Markdown does for one backtick: a span needs a
 * closing backtick and something inside; a lone backtick stays as written. Pure, for the board.
 */
export function inlineCodeParts(content: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = '';
  let at = 0;
  while (at < content.length) {
    const open = content.indexOf('`', at);
    const close = open < 0 ? -1 : content.indexOf('`', open + 1);
    if (open < 0 || close < 0) break;
    if (close === open + 1) {
      plain += content.slice(at, close + 1);
      at = close + 1;
      continue;
    }
    plain += content.slice(at, open);
    if (plain) parts.push({ code: false, text: plain });
    plain = '';
    parts.push({ code: true, text: content.slice(open + 1, close) });
    at = close + 1;
  }
  plain += content.slice(at);
  if (plain) parts.push({ code: false, text: plain });
  return parts;
}
