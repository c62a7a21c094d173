import { tokenizePosix } from './posixWords';
import { tokenizePowerShell } from './powerShellWords';
import { REDIRECTIONS, type ShellKind, type Tokens, type Word } from './shellWords';

/**
 * What a command line would do, as far as approvals care: the programs it runs, the wrappers among
 * them (programs that run another program, which no session rule may cover), and the files it
 * writes. Writes come in two kinds:
 * - `redirect`: an output redirection, `tee`, `dd of=`, `sed -i` — a file change riding on any
 *   program, so it needs the file-change permission (Auto-approve edits, or a file-change rule);
 * - `program`: the operands of a program whose whole job is changing files (`rm`, `mv`, `cp`, …):
 *   allowing that program for the session allows its changes inside the workspace.
 * Either kind with a target outside the workspace always asks (except in Full auto).
 */
export interface CommandLine {
  programs: string[];
  wrappers: string[];
  writes: Write[];
  /** A `cd`, `pushd`, `popd`, `Set-Location`… somewhere in the line: relative targets after it cannot be placed. */
  changesDirectory: boolean;
}

export interface Write {
  target: Word;
  kind: 'redirect' | 'program';
  /** The program, or the redirection operator, that writes: for messages. */
  by: string;
}

export type Judged = { ok: true; line: CommandLine } | { ok: false; reason: string };

/** Programs that run another program or arbitrary code given as arguments. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'su',
  'runuser',
  'pkexec',
  'env',
  'npx',
  'pnpx',
  'bunx',
  'xargs',
  'parallel',
  'nohup',
  'time',
  'nice',
  'ionice',
  'timeout',
  'command',
  'builtin',
  'exec',
  'eval',
  'source',
  '.',
  'stdbuf',
  'setsid',
  'chroot',
  'strace',
  'ltrace',
  'watch',
  'flock',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'script',
  'pwsh',
  'powershell',
  'cmd',
  'invoke-expression',
  'iex',
  'start-process',
  'saps',
  'start',
  'invoke-command',
  'icm',
  'start-job',
]);
/** Package runners that run a program named as an argument (`npm exec x`, `yarn dlx x`). */
const RUNNER_SUBCOMMANDS: Record<string, string[]> = { npm: ['exec', 'x'], pnpm: ['exec', 'dlx'], yarn: ['exec', 'dlx'], bun: ['x'] };
/** Starts of a compound command whose next word is the program. */
const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac']);
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd', 'set-location', 'sl', 'chdir', 'push-location', 'pop-location']);
/** Separators between commands. */
const SEPARATORS = new Set([';', '&', '&&', '||', '|', '|&', ';;', '(', ')']);

function tokenize(command: string, shell: ShellKind): Tokens {
  return shell === 'powershell' ? tokenizePowerShell(command) : tokenizePosix(command);
}

export function judgeCommandLine(command: string, shell: ShellKind): Judged {
  const tokenized = tokenize(command, shell);
  if (!tokenized.ok) return tokenized;
  const line: CommandLine = { programs: [], wrappers: [], writes: [], changesDirectory: false };
  let words: Word[] = [];
  const tokens = tokenized.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'op' && REDIRECTIONS.has(token.op)) {
      const target = tokens[i + 1];
      if (target?.kind !== 'word') return { ok: false, reason: `a redirection ${token.op} without a target` };
      i++;
      if (isOutputRedirection(token.op, target.word)) line.writes.push({ target: target.word, kind: 'redirect', by: token.op });
      continue;
    }
    if (token.kind === 'op' && SEPARATORS.has(token.op)) {
      // `name() { … }` defines a function that a later word runs: nothing to match a rule against.
      if (token.op === '(' && words.length > 0) return { ok: false, reason: 'a function definition' };
      const judged = addCommand(line, words, shell);
      if (judged !== null) return { ok: false, reason: judged };
      words = [];
      continue;
    }
    if (token.kind === 'word') words.push(token.word);
  }
  const judged = addCommand(line, words, shell);
  if (judged !== null) return { ok: false, reason: judged };
  return { ok: true, line };
}

/** The programs of a command line, or null when it cannot be judged. */
export function commandLinePrograms(command: string, shell: ShellKind): string[] | null {
  const judged = judgeCommandLine(command, shell);
  return judged.ok ? judged.line.programs : null;
}

function isOutputRedirection(op: string, target: Word): boolean {
  if (op === '<' || op === '<<' || op === '<<-' || op === '<<<' || op === '<&') return false;
  // `>&2`, `2>&1`, `>&-`: a descriptor, not a file (bash reads `>&word` as `&>word` otherwise).
  if ((op === '>&' || op === '*>&') && /^(\d+|-)$/.test(target.text) && !target.expands) return false;
  return true;
}

/** Adds one simple command; returns why the line cannot be judged, or null. */
function addCommand(line: CommandLine, all: Word[], shell: ShellKind): string | null {
  let words = all;
  while (words.length > 0 && KEYWORDS.has(words[0]!.text) && !words[0]!.expands) words = words.slice(1);
  if (words.length === 0) return null;
  const first = words[0]!;
  if (shell === 'posix' && (first.text === 'for' || first.text === 'select')) return null; // a loop header: its words are data
  if (shell === 'posix' && (first.text === 'case' || first.text === 'function' || first.text === 'coproc')) return `a ${first.text} command`;
  if (first.expands || first.glob || first.brace) return 'a program named by a variable or pattern';
  // `FOO=1 npm test`: an assignment can change what the program does (PATH, LD_PRELOAD, NODE_OPTIONS).
  const assigns = shell === 'posix' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first.text);
  let at = 0;
  if (assigns) while (at < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at]!.text)) at++;
  const programWord = words[at];
  if (programWord === undefined) return null; // only assignments: nothing runs
  if (programWord.expands || programWord.glob || programWord.brace) return 'a program named by a variable or pattern';
  const program = programWord.text;
  const args = words.slice(at + 1);
  line.programs.push(program);
  const name = baseName(program, shell);
  if (assigns) line.wrappers.push(first.text);
  if (isWrapper(name, args)) line.wrappers.push(program);
  if (DIRECTORY_CHANGERS.has(name)) line.changesDirectory = true;
  for (const write of writesOf(name, args, shell)) line.writes.push(write);
  return null;
}

function baseName(program: string, shell: ShellKind): string {
  const base = program.split(shell === 'powershell' ? /[\\/]/ : /\//).pop() ?? program;
  return shell === 'powershell' ? base.toLowerCase().replace(/\.exe$/, '') : base;
}

function isWrapper(name: string, args: Word[]): boolean {
  if (WRAPPERS.has(name) || WRAPPERS.has(name.toLowerCase())) return true;
  if (name === 'find') return args.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a.text));
  const subcommands = RUNNER_SUBCOMMANDS[name];
  const subcommand = args.find((a) => !a.text.startsWith('-'));
  return subcommands !== undefined && subcommand !== undefined && subcommands.includes(subcommand.text);
}

const operandsOf = (args: Word[]): Word[] => {
  const operands: Word[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.text === '--') options = false;
    else if (options && arg.text.startsWith('-') && arg.text !== '-') continue;
    else operands.push(arg);
  }
  return operands;
};

/** `-t DIR` / `--target-directory=DIR` of cp, mv, ln, install. */
function targetDirectory(args: Word[]): Word | undefined {
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '-t' || text === '--target-directory') return args[i + 1];
    if (text.startsWith('--target-directory=')) return { ...args[i]!, text: text.slice('--target-directory='.length) };
    if (/^-t./.test(text)) return { ...args[i]!, text: text.slice(2) };
  }
  return undefined;
}

/** The files a known program writes, taken wide: a word we are unsure of only makes the card appear. */
function writesOf(name: string, args: Word[], shell: ShellKind): Write[] {
  const program = (target: Word): Write => ({ target, kind: 'program', by: name });
  const redirect = (target: Word): Write => ({ target, kind: 'redirect', by: name });
  if (shell === 'powershell') return powerShellWrites(name, args);
  const operands = operandsOf(args);
  switch (name) {
    case 'tee':
      return operands.map(redirect);
    case 'dd':
      return args.filter((a) => a.text.startsWith('of=')).map((a) => redirect({ ...a, text: a.text.slice(3), tilde: a.text.startsWith('of=~') }));
    case 'sed':
    case 'perl': {
      if (!args.some((a) => /^-[a-zA-Z]*i/.test(a.text) || a.text.startsWith('--in-place'))) return [];
      // With no -e/-f the first operand is the script.
      const scripted = args.some((a) => a.text === '-e' || a.text === '-f' || a.text.startsWith('--expression') || a.text.startsWith('--file'));
      return (scripted ? operands : operands.slice(1)).map(redirect);
    }
    case 'cp':
    case 'install':
    case 'ln': {
      const directory = targetDirectory(args);
      if (directory) return [program(directory)];
      if (name === 'install' && args.some((a) => a.text === '-d')) return operands.map(program);
      if (name === 'ln' && operands.length === 1) return [];
      return operands.length > 0 ? [program(operands.at(-1)!)] : [];
    }
    case 'mv': {
      const directory = targetDirectory(args);
      return [...operands, ...(directory ? [directory] : [])].map(program);
    }
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'touch':
    case 'mkdir':
    case 'truncate':
    case 'shred':
      return operands.map(program);
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return operands.slice(1).map(program);
    default:
      return [];
  }
}

const POWERSHELL_WRITERS = new Set([
  'out-file',
  'set-content',
  'add-content',
  'clear-content',
  'tee-object',
  'tee',
  'new-item',
  'ni',
  'remove-item',
  'rm',
  'del',
  'erase',
  'ri',
  'rd',
  'rmdir',
  'copy-item',
  'cp',
  'copy',
  'cpi',
  'move-item',
  'mv',
  'move',
  'mi',
  'rename-item',
  'ren',
  'rni',
  'set-item',
  'si',
  'mkdir',
  'md',
  'export-csv',
  'export-clixml',
]);
const POWERSHELL_REDIRECT_LIKE = new Set(['out-file', 'set-content', 'add-content', 'tee-object', 'tee', 'export-csv', 'export-clixml']);

/** In PowerShell every non-parameter word of a file cmdlet counts as a target (values of switches included: wide, never narrow). */
function powerShellWrites(name: string, args: Word[]): Write[] {
  if (!POWERSHELL_WRITERS.has(name)) return [];
  const kind = POWERSHELL_REDIRECT_LIKE.has(name) ? 'redirect' : 'program';
  const targets = args.flatMap((a): Word[] => {
    if (!a.text.startsWith('-')) return [a];
    const colon = a.text.indexOf(':'); // -Path:C:\x
    return colon > 0 ? [{ ...a, text: a.text.slice(colon + 1) }] : [];
  });
  return targets.map((target) => ({ target, kind, by: name }));
}
