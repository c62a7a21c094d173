/**
 * What the shell tokenizers (posixWords, powerShellWords) share. They split a command line into
 * words and operators the way the shell that runs it would, far enough to judge it for approvals.
 * Anything that runs text we cannot see statically (command
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

export const REDIRECTIONS = new Set(['&>>', '&>', '>>', '>|', '>&', '<<<', '<<-', '<<', '<>', '<&', '>', '<', '*>&', '*>>', '*>']);

export const unjudgeable = (reason: string): Tokens => ({ ok: false, reason });

export function emptyWord(): Word {
  return { text: '', expands: false, tilde: false, glob: false, brace: false };
}

export function operatorAt(command: string, i: number, operators: string[]): string | null {
  for (const op of operators) if (command.startsWith(op, i)) return op;
  return null;
}
