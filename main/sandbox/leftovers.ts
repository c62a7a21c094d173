import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { removePlaceholders } from './placeholders';

/** Environment variable that marks a helper and every process it starts (its socat bridges). */
export const HELPER_MARKER_VARIABLE = 'KEEL_SANDBOX_HELPER';

const RecordSchema = z.object({ ownerPid: z.number().int(), marker: z.string().min(8), workspace: z.string(), placeholders: z.array(z.string()) });
export type HelperRecord = z.infer<typeof RecordSchema>;

function recordsDir(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'helpers');
}

/** Written while a helper runs, removed when it ends well: what is left names a crash to clean up after. */
export function writeHelperRecord(dataDir: string, record: HelperRecord): string {
  const dir = recordsDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${record.marker}.json`);
  writeFileSync(file, JSON.stringify(record));
  return file;
}

export function removeHelperRecord(file: string): void {
  rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pids whose environment carries one of the markers (Linux: /proc; elsewhere none are found). */
async function markedProcesses(markers: ReadonlySet<string>): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'latin1');
      for (const variable of environ.split('\0')) {
        if (variable.startsWith(`${HELPER_MARKER_VARIABLE}=`) && markers.has(variable.slice(HELPER_MARKER_VARIABLE.length + 1))) found.push(Number(entry));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

export interface SweepResult {
  placeholders: string[];
  processes: number[];
}

/**
 * At start-up: for every helper whose Keel is gone, remove the placeholder files it left in its
 * workspace and end the processes it started. A record of a Keel still running is left alone.
 */
export async function sweepLeftovers(dataDir: string): Promise<SweepResult> {
  const dir = recordsDir(dataDir);
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return { placeholders: [], processes: [] };
  }
  const stale: { file: string; record: HelperRecord }[] = [];
  for (const name of files) {
    const file = path.join(dir, name);
    let record: HelperRecord;
    try {
      record = RecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      rmSync(file, { force: true });
      continue;
    }
    if (!alive(record.ownerPid)) stale.push({ file, record });
  }
  if (stale.length === 0) return { placeholders: [], processes: [] };
  const processes = await markedProcesses(new Set(stale.map((s) => s.record.marker)));
  for (const pid of processes) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already ended
    }
  }
  const placeholders = stale.flatMap(({ record }) => removePlaceholders(record.placeholders));
  for (const { file } of stale) rmSync(file, { force: true });
  return { placeholders, processes };
}
