import { spawn } from 'node:child_process';
import path from 'node:path';
import { findProgram } from '../../platform/findOnPath';
import type { StopReason } from './jobRunner';
import { requiredAsciiLiterals } from './literals';

/**
 * ripgrep as a file filter: it walks and reads the tree on every core, natively, and names the
 * files that hold the search's required literal text; only those are then searched by the workers
 * (the same matcher, encodings and caps as always), reached through walkListedSync (the same
 * .gitignore rules as always). So ripgrep decides nothing about the answer: it may only list too
 * many files, never too few, and each choice below is made so that it cannot list too few.
 */

/** Literals shorter than this are in nearly every file: listing them costs more than it saves. */
const MIN_LITERAL_CHARS = 3;
/** ripgrep gives way to the main thread (the window, the board, Stop) as the search threads do (SEARCH_NICE in worker.ts). */
const RIPGREP_NICE = 5;

export interface RipgrepRequest {
  /** Real folder searched: ripgrep runs there and names files relative to it. */
  start: string;
  pattern: string;
  ignoreCase: boolean;
  glob?: string;
  /** Real paths never searched: ripgrep is told to pass over those it can be told about. */
  hidden?: readonly string[];
}

export type RipgrepOutcome =
  /** Relative to start, forward slashes: every file that may match, and those ripgrep could not read. */
  | { kind: 'listed'; files: string[] }
  | { kind: 'stopped'; reason: StopReason }
  /** ripgrep is absent, the pattern has no usable literal, or ripgrep said something unexpected: search as without it. */
  | { kind: 'unsuitable'; why: string };

let program: string | null | undefined;

/**
 * ripgrep on the PATH, looked up once; a missing one is looked up again (it may be installed
 * meanwhile). KEEL_SEARCH_RIPGREP=off leaves it unused (to compare, or to rule it out).
 */
export function ripgrepProgram(): string | null {
  if (process.env.KEEL_SEARCH_RIPGREP === 'off') return null;
  if (program) return program;
  program = findProgram(process.platform === 'win32' ? 'rg.exe' : 'rg', process.env.PATH);
  return program;
}

let niceFound: string | null | undefined;

/** nice(1), where there is one (not on Windows, which has no nice values). */
function niceProgram(): string | null {
  if (niceFound === undefined) niceFound = process.platform === 'win32' ? null : findProgram('nice', process.env.PATH);
  return niceFound;
}

/**
 * The fixed strings every matching line holds, for ripgrep; null when there are none worth it.
 * Only printable ASCII: a legacy-encoded file (GBK, Shift_JIS) holds an ASCII character as that
 * byte, but any other character as bytes ripgrep would not know. Ignoring case, s and k are left
 * out too: ſ and the Kelvin sign K fold to them, and in a legacy encoding those are other bytes.
 */
export function ripgrepLiterals(pattern: string, ignoreCase: boolean): string[] | null {
  const literals = requiredAsciiLiterals(pattern, ignoreCase ? /[^\x20-\x7e]+|[sSkK]/ : undefined);
  if (!literals || literals.some((literal) => literal.length < MIN_LITERAL_CHARS)) return null;
  return [...new Set(literals)];
}

/** A glob ripgrep reads as picomatch does (a file name pattern of letters, `*`, `?` and one simple brace list); others are left to the workers. */
const SIMPLE_GLOB = /^[\w.*?-]*(?:\{[\w.-]+(?:,[\w.-]+)+\})?[\w.*?-]*$/;
const GLOB_SPECIAL = /[*?[\]{}\\!]/;

export function ripgrepArgs(request: RipgrepRequest, literals: readonly string[]): string[] {
  const args = [
    // Nothing from a config file (RIPGREP_CONFIG_PATH) may change what is listed.
    '--no-config',
    '--files-with-matches',
    '--null',
    '--hidden',
    // The .gitignore files inside the tree prune it; the workers apply Keel's own rules after.
    '--no-require-git',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-ignore-exclude',
    // Links to files are searched by Keel; ripgrep skips every link unless told to follow them.
    '--follow',
    // The workers judge binary files by their first 64 KiB; ripgrep stops at any NUL byte.
    '--text',
    '--fixed-strings',
    request.ignoreCase ? '--ignore-case' : '--case-sensitive',
  ];
  const glob = request.glob?.trim();
  if (glob !== undefined && SIMPLE_GLOB.test(glob) && !glob.includes('..')) args.push('--glob', glob);
  // Last, so they win over the glob above.
  args.push('--glob', '!.git', '--glob', '!node_modules');
  for (const secret of request.hidden ?? []) {
    const relative = path.relative(request.start, secret).split(path.sep).join('/');
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || GLOB_SPECIAL.test(relative)) continue;
    args.push('--glob', `!/${relative}`);
  }
  for (const literal of literals) args.push('--regexp', literal);
  args.push('--', '.');
  return args;
}

/** `rg: ./a/b: Permission denied (os error 13)`; ripgrep 13 leaves out the `rg: `. */
const PATH_ERROR = /^(?:rg: )?(\.[/\\].*): [^:]*\(os error \d+\)$/;
/** Loops through followed links to folders, which Keel never enters anyway. */
const LOOP = /^(?:rg: )?File system loop found: /;

/** Runs ripgrep for the files that may match; killed at once when the signal aborts or the deadline passes. */
export function listCandidates(
  request: RipgrepRequest,
  control: {
    signal?: AbortSignal;
    deadlineMs: number;
    /**
     * Past this many files listed, ripgrep is ended and the answer is `unsuitable`: text that
     * common fills a capped answer from the first files of the walk, sooner than ripgrep can
     * list them all.
     */
    enough?: number;
  },
): Promise<RipgrepOutcome> {
  const rg = ripgrepProgram();
  if (rg === null) return Promise.resolve({ kind: 'unsuitable', why: 'ripgrep is not on the PATH' });
  const literals = ripgrepLiterals(request.pattern, request.ignoreCase);
  if (literals === null) return Promise.resolve({ kind: 'unsuitable', why: 'the pattern has no literal text for ripgrep' });
  if (control.signal?.aborted) return Promise.resolve({ kind: 'stopped', reason: 'aborted' });
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH;

  return new Promise<RipgrepOutcome>((resolve) => {
    let settled = false;
    const stdout: Buffer[] = [];
    let stderr = '';
    // Through nice(1), which then becomes ripgrep: set on the process after spawning it, the nice
    // value missed the threads ripgrep had already started (measured: 2 of its 3 stayed at 0).
    const nice = niceProgram();
    const args = ripgrepArgs(request, literals);
    const child = spawn(nice ?? rg, nice ? ['-n', String(RIPGREP_NICE), rg, ...args] : args, {
      cwd: request.start,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const settle = (outcome: RipgrepOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      control.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const onAbort = () => settle({ kind: 'stopped', reason: 'aborted' });
    control.signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = setTimeout(() => settle({ kind: 'stopped', reason: 'deadline' }), control.deadlineMs);
    let listed = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, at + 1)) listed++;
      if (control.enough !== undefined && listed > control.enough) settle({ kind: 'unsuitable', why: `more than ${control.enough} files hold the literal` });
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => settle({ kind: 'unsuitable', why: `ripgrep could not start: ${error.message}` }));
    child.on('close', (code) => {
      // 0: files listed, 1: none, 2: some could not be read (or ripgrep failed: see stderr).
      if (code !== 0 && code !== 1 && code !== 2) return settle({ kind: 'unsuitable', why: `ripgrep exited with ${String(code)}` });
      const files = Buffer.concat(stdout)
        .toString('utf8')
        .split('\0')
        .filter((file) => file !== '');
      for (const line of stderr.split(/\r?\n/)) {
        if (line === '' || LOOP.test(line)) continue;
        const unreadable = PATH_ERROR.exec(line);
        // Anything else (a .gitignore ripgrep cannot parse, an option it lacks) may mean files were left out.
        if (!unreadable) return settle({ kind: 'unsuitable', why: `ripgrep said: ${line}` });
        // Listed so the worker tries it and reports it unreadable, as without ripgrep.
        files.push(unreadable[1] as string);
      }
      settle({ kind: 'listed', files: files.map(toRelative) });
    });
  });
}

/** `./a/b` (or `.\a\b` on Windows) as `a/b`. */
function toRelative(file: string): string {
  const relative = file.replace(/^\.[/\\]/, '');
  return process.platform === 'win32' ? relative.replace(/\\/g, '/') : relative;
}
