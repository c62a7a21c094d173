/**
 * Literal text that every match of a JavaScript regular expression must contain, so a file whose
 * bytes hold none of it can be skipped without decoding it or running the regex (ripgrep's
 * "inner literal" trick). Conservative: anything not plainly literal ends a run, and null means
 * "no such text is known", never a wrong answer.
 */
export function requiredLiterals(pattern: string): string[] | null {
  const branches = topLevelBranches(pattern);
  if (branches === null) return null;
  const literals: string[] = [];
  for (const branch of branches) {
    const runs = literalRuns(branch);
    if (runs === null || runs.length === 0) return null;
    literals.push(longest(runs));
  }
  return literals;
}

/**
 * As requiredLiterals, but only ASCII runs: case-insensitive matching of ASCII has a byte form.
 * Runs are also cut at the characters `apart` matches (any part of a required run is required).
 */
export function requiredAsciiLiterals(pattern: string, apart: RegExp = /[^\x20-\x7e]+/): string[] | null {
  const branches = topLevelBranches(pattern);
  if (branches === null) return null;
  const literals: string[] = [];
  for (const branch of branches) {
    const runs = literalRuns(branch)
      ?.flatMap((run) => run.split(apart))
      .filter((run) => run !== '');
    if (!runs || runs.length === 0) return null;
    literals.push(longest(runs));
  }
  return literals;
}

function longest(runs: readonly string[]): string {
  return runs.reduce((best, run) => (Buffer.byteLength(run) > Buffer.byteLength(best) ? run : best));
}

/** The pattern split at `|` outside groups and classes; null when the brackets do not balance. */
function topLevelBranches(pattern: string): string[] | null {
  const branches: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      if (end === -1) return null;
      i = end;
    } else if (char === '(') {
      depth++;
    } else if (char === ')') {
      if (--depth < 0) return null;
    } else if (char === '|' && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  branches.push(pattern.slice(start));
  return branches;
}

/** Index of the `]` closing the class opened at `open`, or -1. */
function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return -1;
}

/** Index just past the `)` closing the group opened at `open`, or -1. */
function groupEnd(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') i++;
    else if (char === '[') {
      i = classEnd(pattern, i);
      if (i === -1) return -1;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:,\d*)?\})\??/;

/**
 * The runs of literal characters of one alternative that every match contains, in order. An atom
 * with a quantifier that allows zero ends the run before it; one that repeats ends it after it.
 */
function literalRuns(branch: string): string[] | null {
  const runs: string[] = [];
  let run = '';
  const endRun = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < branch.length) {
    const char = branch[i] as string;
    let atom: string | null = null;
    let next = i + 1;
    if (char === '\\') {
      const escaped = branch[i + 1];
      if (escaped === undefined) return null;
      // \d \w \b \n \u… and back-references are not literal text; escaped punctuation is.
      if (!/[0-9A-Za-z]/.test(escaped)) atom = escaped;
      next = escapeEnd(branch, i);
    } else if (char === '[') {
      const end = classEnd(branch, i);
      if (end === -1) return null;
      next = end + 1;
    } else if (char === '(') {
      const end = groupEnd(branch, i);
      if (end === -1) return null;
      next = end;
    } else if (char === ')' || char === ']' || char === '{' || char === '}' || char === '*' || char === '+' || char === '?') {
      return null; // A quantifier with nothing before it, or a stray bracket: leave the regex engine to judge.
    } else if (char !== '.' && char !== '^' && char !== '$') {
      atom = char;
      // A surrogate pair is one character to a quantifier in u mode: keep the pair together.
      const code = char.charCodeAt(0);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < branch.length) {
        atom = branch.slice(i, i + 2);
        next = i + 2;
      }
    }
    const quantifier = QUANTIFIER.exec(branch.slice(next, next + 24));
    if (branch[next] === '{' && !quantifier) return null;
    if (quantifier) {
      next += quantifier[0].length;
      const first = quantifier[0][0];
      const required = first === '+' || (first === '{' && Number(quantifier[1]) >= 1);
      if (atom !== null && required) run += atom;
      endRun();
    } else if (atom !== null) {
      run += atom;
    } else {
      endRun();
    }
    i = next;
  }
  endRun();
  return runs;
}

/** Index just past the escape sequence starting at `start` (a backslash): \x41, \u{1F600}, \p{L}, \k<name>, \12… */
function escapeEnd(branch: string, start: number): number {
  const rest = branch.slice(start + 1);
  const sequence = /^(?:c[A-Za-z]|x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|[pP]\{[^}]*\}|k<[^>]*>|\d+)/.exec(rest);
  return start + 1 + (sequence ? sequence[0].length : 1);
}
