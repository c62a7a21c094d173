/**
 * Splits a command line into words and operators the way the shell that runs it would, far enough
 * to judge it for approvals. Anything that runs text we cannot see statically (command
 * substitution, process substitution, a here-doc that expands, PowerShell's sub-expressions,
 * script blocks, the call operator, `--%`) makes the line unjudgeable: the caller asks.
 */

export type ShellKind = 'posix' | 'powershell';

/** A word after quote removal, with what the shell would still do to it when it runs. */
export interface Word {
  text: string;
  /** Holds a `$` expansion (variable, parameter) that only the running shell can resolve. */
  expands: boolean;
  /** Starts with an unquoted `~` (home folder). */
  tilde: boolean;
  /** Holds unquoted glob characters (`*`, `?`, `[`). */
  glob: boolean;
  /** Holds an unquoted `{` (brace expansion can turn one word into many). */
  brace: boolean;
}

export type Token = { kind: 'word'; word: Word } | { kind: 'op'; op: string };

export type Tokens = { ok: true; tokens: Token[] } | { ok: false; reason: string };

/** The shell a platform's commands run in (the bash tool uses PowerShell on Windows). */
export function shellKindFor(platform: NodeJS.Platform): ShellKind {
  return platform === 'win32' ? 'powershell' : 'posix';
}

const POSIX_OPERATORS = ['&&', '||', ';;', '|&', '&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<>', '<&', ';', '&', '|', '(', ')', '>', '<'];
const POWERSHELL_OPERATORS = ['&&', '||', '*>&', '*>>', '*>', '>>', '>&', ';', '|', '>', '<'];
export const REDIRECTIONS = new Set(['&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<>', '<&', '>', '<', '*>&', '*>>', '*>']);

const unjudgeable = (reason: string): Tokens => ({ ok: false, reason });

export function tokenize(command: string, shell: ShellKind): Tokens {
  return shell === 'powershell' ? tokenizePowerShell(command) : tokenizePosix(command);
}

function emptyWord(): Word {
  return { text: '', expands: false, tilde: false, glob: false, brace: false };
}

function tokenizePosix(command: string): Tokens {
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
  endWord();
  if (heredocs.length > 0) {
    // A here-doc without a newline has no body: bash warns and reads nothing.
  }
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

function operatorAt(command: string, i: number, operators: string[]): string | null {
  for (const op of operators) if (command.startsWith(op, i)) return op;
  return null;
}

/**
 * PowerShell: `'…'` is literal (`''` is a quote), `"…"` expands `$name` and runs `$(…)`, the
 * backtick escapes. Grouping and script blocks run whatever they hold, so `(`, `@(`, `$(`, `@{`,
 * `{`, the call operator `&` and the stop-parsing token `--%` make the line unjudgeable.
 */
function tokenizePowerShell(command: string): Tokens {
  const tokens: Token[] = [];
  let word: Word | null = null;
  const endWord = () => {
    if (word === null) return;
    if (word.text === '--%') {
      word = null;
      throw new Unjudgeable('the stop-parsing token --%');
    }
    tokens.push({ kind: 'word', word });
    word = null;
  };
  const current = (): Word => (word ??= emptyWord());
  try {
    for (let i = 0; i < command.length; i++) {
      const c = command[i]!;
      const next = command[i + 1];
      if (c === '`') {
        if (next === '\n') {
          i++;
          continue;
        }
        current().text += next ?? '';
        i++;
        continue;
      }
      if (c === "'" || c === '‘' || c === '’') {
        const w = current();
        let j = i + 1;
        for (; j < command.length; j++) {
          const d = command[j]!;
          if (d === "'" || d === '‘' || d === '’') {
            if (command[j + 1] === d) {
              w.text += d;
              j++;
              continue;
            }
            break;
          }
          w.text += d;
        }
        if (j >= command.length) return unjudgeable('an unterminated single quote');
        i = j;
        continue;
      }
      if (c === '"' || c === '“' || c === '”') {
        const w = current();
        let j = i + 1;
        for (; j < command.length && !'"“”'.includes(command[j]!); j++) {
          const d = command[j]!;
          if (d === '$' && command[j + 1] === '(') return unjudgeable('a sub-expression $(…)');
          if (d === '$') w.expands = true;
          if (d === '`') {
            j++;
            w.text += command[j] ?? '';
            continue;
          }
          w.text += d;
        }
        if (j >= command.length) return unjudgeable('an unterminated double quote');
        i = j;
        continue;
      }
      if (c === '(' || c === ')') return unjudgeable('a parenthesised expression');
      if (c === '{' || c === '}') return unjudgeable('a script block');
      if (c === '@' && (next === '(' || next === '{')) return unjudgeable('an array or hash expression');
      if (c === '&' && next !== '&' && command[i - 1] !== '&') return unjudgeable('the call operator &');
      if (c === ' ' || c === '\t') {
        endWord();
        continue;
      }
      if (c === '#' && word === null) {
        while (i + 1 < command.length && command[i + 1] !== '\n') i++;
        continue;
      }
      if (c === '<' && next === '#') return unjudgeable('a block comment');
      if (c === '\n' || c === '\r') {
        endWord();
        tokens.push({ kind: 'op', op: ';' });
        continue;
      }
      if (c === '$') {
        current().expands = true;
        current().text += c;
        continue;
      }
      const op = operatorAt(command, i, POWERSHELL_OPERATORS);
      if (op !== null) {
        const w = word as Word | null;
        if (REDIRECTIONS.has(op) && w !== null && /^\d+$/.test(w.text)) word = null;
        endWord();
        tokens.push({ kind: 'op', op });
        i += op.length - 1;
        continue;
      }
      const w = current();
      if (c === '~' && w.text === '') w.tilde = true;
      if (c === '*' || c === '?' || c === '[') w.glob = true;
      w.text += c;
    }
    endWord();
  } catch (error) {
    if (error instanceof Unjudgeable) return unjudgeable(error.message);
    throw error;
  }
  return { ok: true, tokens };
}

class Unjudgeable extends Error {}
