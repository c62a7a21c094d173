import type * as Re2 from 're2js';
import type { RE2JS } from 're2js';
import { lazyPackage } from '../files/lazyPackage';
import { compileSearchRegex, SHOWN_LINE_CHARS } from './regex';

export interface LineMatch {
  index: number;
  length: number;
}

/** Finds the first match of the model's pattern in one line. */
export interface LineMatcher {
  /** Which engine runs it: `linear` cannot backtrack, `backtracking` is JavaScript's own. */
  engine: 'linear' | 'backtracking';
  /** The first match; for a line short enough to be shown whole, index and length may be 0. */
  find(line: string): LineMatch | null;
}

/** Loaded by the first pattern with repetition: a literal search never pays for it. */
const re2js = lazyPackage<typeof Re2>('re2js');

/** JavaScript's \s, written out: RE2's \s is ASCII only. */
const JS_SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** JavaScript's `.`: RE2's matches \r, U+2028 and U+2029 too. */
const JS_DOT = '[^\\n\\r\\u2028\\u2029]';
/** Escapes that mean the same in both engines (the rest, such as \1, \k or \Q, do not: JavaScript runs those). */
const SHARED_LETTER_ESCAPES = /[dDwWsSbBnrtfv0xuc]/;

/**
 * The model's pattern as a matcher that cannot backtrack catastrophically. A pattern RE2 can
 * express runs on re2js, linear in the line's length whatever its nesting ((a+)+$ answers at once);
 * one without repetition runs on JavaScript's engine, which is faster and cannot blow up without
 * a quantifier; only look-ahead and back-references still need JavaScript's engine with repetition,
 * and those stay bounded by the search's deadline.
 */
export function makeLineMatcher(pattern: string, ignoreCase: boolean): LineMatcher | { error: string } {
  const regex = compileSearchRegex(pattern, ignoreCase);
  if ('error' in regex) return regex;
  const backtracking: LineMatcher = {
    engine: 'backtracking',
    find: (line) => {
      const match = regex.exec(line);
      return match ? { index: match.index, length: match[0].length } : null;
    },
  };
  if (!hasRepetition(pattern)) return backtracking;
  const linear = compileLinear(pattern, ignoreCase, regex.unicode);
  if (!linear) return backtracking;
  return {
    engine: 'linear',
    find: (line) => {
      // The DFA answers yes or no fastest; where the match is matters only for a line shown cut.
      if (!linear.test(line)) return null;
      if (line.length <= SHOWN_LINE_CHARS) return { index: 0, length: 0 };
      const match = linear.exec(line) as (string[] & { index: number }) | null;
      return match ? { index: match.index, length: (match[0] as string).length } : { index: 0, length: 0 };
    },
  };
}

function compileLinear(pattern: string, ignoreCase: boolean, unicode: boolean): RE2JS | null {
  const rewritten = toRe2Syntax(pattern, unicode);
  if (rewritten === null) return null;
  const { RE2JS: engine } = re2js();
  try {
    return engine.compile(engine.translateRegExp(rewritten), engine.LOOKBEHINDS | (ignoreCase ? engine.CASE_INSENSITIVE : 0));
  } catch {
    // Look-ahead, back-references, a repeat count over 1000: not RE2's.
    return null;
  }
}

/** True when the pattern has a quantifier outside a character class. */
function hasRepetition(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') i++;
    else if (char === '[') i = classEnd(pattern, i);
    else if (char === '(' && pattern[i + 1] === '?') i++;
    else if (char === '*' || char === '+' || char === '?' || char === '{') return true;
  }
  return false;
}

/** Index of the `]` closing the class opened at `open` (in JavaScript the first unescaped one). */
function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/**
 * The pattern with JavaScript's `.` and `\s` spelled out, so both engines match the same lines;
 * null when it holds an escape whose meaning differs between them.
 */
function toRe2Syntax(pattern: string, unicode: boolean): string | null {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return null;
      i++;
      if (/[A-Za-z0-9]/.test(next)) {
        // \p{…} is a property only with the u flag; other letters differ between the engines.
        if (next === 'p' || next === 'P') {
          if (!unicode) return null;
        } else if (!SHARED_LETTER_ESCAPES.test(next)) return null;
        if (next === '0' && /[0-9]/.test(pattern[i + 1] ?? '')) return null;
        // Without the u flag, \x and \u not followed by their hex digits are plain letters.
        if (!unicode && next === 'x' && !/^[0-9a-fA-F]{2}/.test(pattern.slice(i + 1))) return null;
        if (next === 'c' && !/^[A-Za-z]/.test(pattern.slice(i + 1))) return null;
        if (!unicode && next === 'u' && !/^[0-9a-fA-F]{4}/.test(pattern.slice(i + 1))) return null;
      }
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      // A leading ] or ^] is literal in RE2 but closes the class in JavaScript.
      const rest = pattern.slice(i + 1);
      if (rest.startsWith(']') || rest.startsWith('^]')) return null;
      continue;
    }
    out += char === '.' ? JS_DOT : char;
  }
  return out;
}
