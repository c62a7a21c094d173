import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { InstructionFile } from '../../common/contextWindow';

/** All instruction files together are cut to this many characters in the system prompt. */
export const INSTRUCTIONS_CAP = 40_000;
/** The workspace's files, both when both exist. */
export const WORKSPACE_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

export interface Instructions {
  files: InstructionFile[];
  /** What the system prompt carries (empty when there is no file). */
  text: string;
}

/**
 * The person's standing instructions: `AGENTS.md` in the data folder (every workspace), then
 * `AGENTS.md` and `CLAUDE.md` at the workspace root. Read at the start of each task. Together they
 * get INSTRUCTIONS_CAP characters, shared fairly: every file found gets at least an equal share
 * (what a short file leaves goes to the longer ones), so one huge file cannot crowd out the others;
 * a cut file ends with a line saying where the rest is.
 */
export function readInstructions(workspace: string, dataDir: string | undefined, cap = INSTRUCTIONS_CAP): Instructions {
  const candidates: { path: string; shown: string; scope: InstructionFile['scope'] }[] = [
    ...(dataDir ? [{ path: join(dataDir, 'AGENTS.md'), shown: join(dataDir, 'AGENTS.md'), scope: 'user' as const }] : []),
    ...WORKSPACE_INSTRUCTION_FILES.map((name) => ({ path: join(workspace, name), shown: name, scope: 'workspace' as const })),
  ];
  const found = candidates.flatMap((candidate) => {
    const size = fileSize(candidate.path);
    if (size === null) return [];
    // Never read more than the cap can show: a huge file costs no more than a small one.
    return [{ ...candidate, size, ...readStart(candidate.path, size, cap) }];
  });
  const shares = fairShares(
    found.map((file) => file.text.length),
    cap,
  );
  const files: InstructionFile[] = [];
  const sections: string[] = [];
  found.forEach((file, i) => {
    const share = shares[i] as number;
    const cut = !file.complete || file.text.length > share;
    const shown = cut ? file.text.slice(0, share) : file.text;
    files.push({ path: file.path, scope: file.scope, chars: file.complete ? file.text.length : file.size, truncated: cut });
    const where = file.scope === 'user' ? 'every workspace (your own instructions)' : 'this workspace';
    const nextLine = shown.split('\n').length;
    const note = cut
      ? `\n[Cut here: Keel gives the model at most ${cap.toLocaleString('en')} characters of instruction files in all, shared between ${found.length === 1 ? 'the one file' : `the ${found.length} files`}, and ${file.shown} (${formatSize(file.size)}) did not fit in its ${share.toLocaleString('en')}. The rest is in ${file.path}, from line ${nextLine}${file.scope === 'workspace' ? `; read it with read_file (offset ${nextLine}) where it matters` : ''}.]`
      : '';
    sections.push(`<instructions file="${file.shown}" applies-to="${where}">\n${shown}${note}\n</instructions>`);
  });
  return { files, text: sections.join('\n\n') };
}

/**
 * Characters each file may show, `cap` in all: shortest first, each gets the whole of itself or an
 * equal share of what is left, whichever is less.
 */
export function fairShares(lengths: readonly number[], cap: number): number[] {
  const shares = new Array<number>(lengths.length).fill(0);
  const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  let left = cap;
  order.forEach((index, k) => {
    const share = Math.min(lengths[index] as number, Math.floor(left / (order.length - k)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}

function fileSize(path: string): number | null {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}

/** The first `chars` characters (or the whole file when it is shorter). */
function readStart(path: string, size: number, chars: number): { text: string; complete: boolean } {
  // UTF-8 takes at most 4 bytes a character; one more character tells whether there is more.
  const bytes = Math.min(size, (chars + 1) * 4);
  const buffer = Buffer.alloc(bytes);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, buffer, 0, bytes, 0);
    const text = buffer
      .subarray(0, read)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    return { text, complete: read >= size };
  } finally {
    closeSync(fd);
  }
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
