/**
 * One word for a POSIX shell, whatever it holds: single-quoted, each `'` closed, escaped and
 * reopened. A command line made of such words runs exactly the program and arguments given.
 */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line that runs `program` with `args`, each one word. */
export function shellCommandLine(program: string, args: readonly string[]): string {
  return [program, ...args].map(shellQuote).join(' ');
}
