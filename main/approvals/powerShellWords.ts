import { emptyWord, operatorAt, REDIRECTIONS, unjudgeable, type Token, type Tokens, type Word } from './shellWords';

const POWERSHELL_OPERATORS = ['&&', '||', '*>&', '*>>', '*>', '>>', '>&', ';', '|', '>', '<'];

/**
 * PowerShell: `'…'` is literal (`''` is a quote), `"…"` expands `$name` and runs `$(…)`, the
 * backtick escapes. Grouping and script blocks run whatever they hold, so `(`, `@(`, `$(`, `@{`,
 * `{`, the call operator `&` and the stop-parsing token `--%` make the line unjudgeable.
 */
export function tokenizePowerShell(command: string): Tokens {
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
