import type { ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';

const MARK = ': cleared to make room';

/**
 * What a cleared tool result says instead of its content: which call it answered and how to get
 * the content back, e.g. `[read_file a.txt, lines 1–700: cleared to make room; read it again if you need it]`.
 */
export function clearedPlaceholder(call: Pick<ToolUseBlockParam, 'name' | 'input'> | undefined, result: ToolResultBlockParam): string {
  const input = (typeof call?.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
  const text = resultText(result);
  const name = call?.name ?? 'tool';
  const str = (key: string): string | undefined => (typeof input[key] === 'string' ? clip(input[key] as string, 120) : undefined);
  switch (name) {
    case 'read_file': {
      const lines = lineRange(text);
      return `[read_file ${str('path') ?? '(file)'}${lines ? `, lines ${lines}` : ''}${MARK}; read it again if you need it]`;
    }
    case 'bash':
      return `[bash \`${(str('command') ?? '').split('\n')[0]}\`${MARK}; run it again if you need its output]`;
    case 'search_text':
      return `[search_text "${str('pattern') ?? ''}"${str('path') ? ` in ${str('path')}` : ''}${MARK}; search again if you need the matches]`;
    case 'list_files':
      return `[list_files ${str('path') ?? '.'}${MARK}; list it again if you need it]`;
    case 'todo':
      return `[todo: the plan as it stood then${MARK}; the current plan is kept by Keel and shown in later plan updates]`;
    default: {
      const about = str('path') ?? str('command');
      return `[${name}${about ? ` ${about}` : ''} result (${text.length} characters)${MARK}; call ${name} again if you need it]`;
    }
  }
}

/** Whether a result is already a placeholder (clearing it again frees nothing). */
export function isCleared(result: ToolResultBlockParam): boolean {
  const content = result.content;
  return typeof content === 'string' && content.startsWith('[') && content.includes(MARK) && content.length < 400;
}

export function resultText(result: ToolResultBlockParam): string {
  const content = result.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** "1–700" from read_file's numbered lines (`   1\ttext`), or null when the output has none. */
function lineRange(text: string): string | null {
  const numbers = [...text.matchAll(/^\s*(\d+)\t/gm)].map((m) => Number(m[1]));
  if (numbers.length === 0) return null;
  return `${numbers[0]}–${numbers.at(-1)}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
