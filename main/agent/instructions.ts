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
 * `AGENTS.md` and `CLAUDE.md` at the workspace root. Read at the start of each task; together
 * they are cut at INSTRUCTIONS_CAP characters, with a line saying so and where the rest is.
 */
export function readInstructions(workspace: string, dataDir: string | undefined, cap = INSTRUCTIONS_CAP): Instructions {
  const candidates: { path: string; shown: string; scope: InstructionFile['scope'] }[] = [
    ...(dataDir ? [{ path: join(dataDir, 'AGENTS.md'), shown: join(dataDir, 'AGENTS.md'), scope: 'user' as const }] : []),
    ...WORKSPACE_INSTRUCTION_FILES.map((name) => ({ path: join(workspace, name), shown: name, scope: 'workspace' as const })),
  ];
  const files: InstructionFile[] = [];
  const sections: string[] = [];
  let left = cap;
  for (const candidate of candidates) {
    const size = fileSize(candidate.path);
    if (size === null) continue;
    // Never read more than the cap can show: a huge file costs no more than a small one.
    const { text, complete } = readStart(candidate.path, size, Math.max(0, left));
    const cut = !complete || text.length > left;
    const shown = cut ? text.slice(0, Math.max(0, left)) : text;
    left -= shown.length;
    files.push({ path: candidate.path, scope: candidate.scope, chars: complete ? text.length : size, truncated: cut });
    const where = candidate.scope === 'user' ? 'every workspace (your own instructions)' : 'this workspace';
    const note = cut
      ? `\n[Cut here: Keel gives the model at most ${cap.toLocaleString('en')} characters of instruction files in all, and ${candidate.shown} (${formatSize(size)}) did not fit. The rest is in ${candidate.path}${candidate.scope === 'workspace' ? '; read it with read_file where it matters' : ''}.]`
      : '';
    sections.push(`<instructions file="${candidate.shown}" applies-to="${where}">\n${shown}${note}\n</instructions>`);
  }
  return { files, text: sections.join('\n\n') };
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
