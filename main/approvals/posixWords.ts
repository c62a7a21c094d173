import { emptyWord, operatorAt, REDIRECTIONS, unjudgeable, type Token, type Tokens, type Word } from './shellWords';

const POSIX_OPERATORS = ['&&', '||', ';;', '|&', '&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<>', '<&', ';', '&', '|', '(', ')', '>', '<'];

/** Words and operators of a POSIX shell (bash, sh) line: quotes, escapes, here-documents. */
export function tokenizePosix(command: string): Tokens {
  const tokens: Token[] = [];
  let word: Word | null = null;
  /** Here-docs opened on the current line: their bodies start after its newline. */
  const heredocs: { delimiter: string; stripTabs: boolean; expands: boolean }[] = [];
  let heredocOp: string | null = null;
  let quotedPart = false;

  const endWord = () => {
    if (word === null) return;
    if (heredocOp !== null) {
      heredocs.push({ delimiter: word.text, stripTabs: heredocOp === '<<-', expands: !quotedPart });
      heredocOp = null;
    }
    tokens.push({ kind: 'word', word });
    word = null;
    quotedPart = false;
  };
  const current = (): Word => (word ??= emptyWord());

  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const next = command[i + 1];
    if (c === '\\' && next === '\n') {
      i++;
      continue;
    }
    if (c === '\\') {
      current().text += next ?? '';
      quotedPart = true;
      i++;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return unjudgeable('an unterminated single quote');
      current().text += command.slice(i + 1, end);
      quotedPart = true;
      i = end;
      continue;
    }
    if (c === '"') {
      const w = current();
      quotedPart = true;
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        const d = command[j]!;
        if (d === '`' || (d === '$' && command[j + 1] === '(')) return unjudgeable('a command substitution');
        if (d === '$') w.expands = true;
        if (d === '\\' && '$`"\\\n'.includes(command[j + 1] ?? '')) {
          j++;
          if (command[j] !== '\n') w.text += command[j];
          continue;
        }
        w.text += d;
      }
      if (j >= command.length) return unjudgeable('an unterminated double quote');
      i = j;
      continue;
    }
    if (c === '`' || (c === '$' && next === '(')) return unjudgeable('a command substitution');
    if ((c === '<' || c === '>') && next === '(') return unjudgeable('a process substitution');
    if (c === ' ' || c === '\t') {
      endWord();
      continue;
    }
    if (c === '#' && word === null) {
      while (i + 1 < command.length && command[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      endWord();
      tokens.push({ kind: 'op', op: ';' });
      if (c === '\r' && next === '\n') i++;
      if (heredocs.length > 0) {
        const skipped = skipHeredocBodies(command, i + 1, heredocs.splice(0));
        if (skipped === null) return unjudgeable('a here-document whose body runs a command');
        i = skipped - 1;
      }
      continue;
    }
    if (c === '$') {
      const w = current();
      w.expands = true;
      if (next === '{') {
        const end = command.indexOf('}', i + 2);
        if (end < 0) return unjudgeable('an unterminated ${…}');
        w.text += command.slice(i, end + 1);
        i = end;
        continue;
      }
      w.text += c;
      continue;
    }
    const op = operatorAt(command, i, POSIX_OPERATORS);
    if (op !== null) {
      // `2>file`: the digits just before a redirection name the descriptor, they are not a word.
      const w = word as Word | null;
      if (REDIRECTIONS.has(op) && w !== null && !quotedPart && /^\d+$/.test(w.text)) word = null;
      endWord();
      tokens.push({ kind: 'op', op });
      if (op === '<<' || op === '<<-') heredocOp = op;
      i += op.length - 1;
      continue;
    }
    const w = current();
    if (c === '~' && w.text === '' && !quotedPart) w.tilde = true;
    if (c === '*' || c === '?' || c === '[') w.glob = true;
    if (c === '{') w.brace = true;
    w.text += c;
  }
  endWord(); // a here-doc opened on the last line has no body: bash warns and reads nothing
  return { ok: true, tokens };
}

/** Returns the index after the last body, or null when an expanding body substitutes a command. */
function skipHeredocBodies(command: string, start: number, heredocs: { delimiter: string; stripTabs: boolean; expands: boolean }[]): number | null {
  let at = start;
  for (const heredoc of heredocs) {
    for (;;) {
      if (at >= command.length) return command.length;
      const end = command.indexOf('\n', at);
      const lineEnd = end < 0 ? command.length : end;
      let line = command.slice(at, lineEnd).replace(/\r$/, '');
      at = lineEnd + 1;
      if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
      if (line === heredoc.delimiter) break;
      if (heredoc.expands && (line.includes('$(') || line.includes('`'))) return null;
    }
  }
  return at;
}
