import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { git, gitLine } from './gitCommand';
import { processAlive, readOwnerMarker, replaceOwnerMarker, writeOwnerMarker, type OwnerMarker } from './ownerMarker';

/**
 * Where one workspace's helper worktrees live. Each entry `<name>` is the worktree `<home>/<name>`,
 * its marker `<home>/<name>.json` and the ref `<refPrefix><name>` that keeps its snapshot; a
 * scratch folder `<home>/.tmp-<pid>-<random>` lives for one operation.
 */
export interface EntryPlace {
  /** The workspace's real path: every git call about entries runs there. */
  workspace: string;
  home: string;
  refPrefix: string;
  /**
   * Runs work that must not overlap a `git worktree move` of this workspace: `git worktree prune`
   * between a move's rename and its update of git's record would take the moved worktree's record.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

const SCRATCH_PREFIX = '.tmp-';

/** The first free `<helperId>`, `<helperId>-2`, … , claimed by writing its marker before anything else. */
export async function claimEntryName(place: EntryPlace, helperId: string): Promise<string> {
  await mkdir(place.home, { recursive: true });
  const taken = new Set(await readdir(place.home));
  for (let n = 1; ; n++) {
    const name = n === 1 ? helperId : `${helperId}-${n}`;
    if (taken.has(name) || taken.has(`${name}.json`)) continue;
    if (await claim(place, name, helperId)) return name;
  }
}

/** A spare's name: `_` cannot start a helper id, so it is never a helper's. */
export async function claimSpareName(place: EntryPlace): Promise<string> {
  await mkdir(place.home, { recursive: true });
  for (;;) {
    const name = `_spare-${process.pid}-${randomBytes(4).toString('hex')}`;
    if (await claim(place, name, name)) return name;
  }
}

async function claim(place: EntryPlace, name: string, helperId: string): Promise<boolean> {
  try {
    await writeOwnerMarker(path.join(place.home, `${name}.json`), {
      pid: process.pid,
      helperId,
      workspace: place.workspace,
      createdAt: new Date().toISOString(),
    });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes an entry whole: the worktree folder, git's record of it, its ref, its marker. */
export async function removeEntry(place: EntryPlace, name: string, options: { folderGone?: boolean } = {}): Promise<void> {
  const root = path.join(place.home, name);
  const cwd = place.workspace;
  // A folder already moved away (remove in the background) is only git's to forget.
  const removed =
    !options.folderGone &&
    // One at a time with adds: git reads every worktree's admin folder, and fails on one being made.
    (await place
      .exclusive(() => git(['worktree', 'remove', '--force', '--force', root], { cwd }))
      .then(
        () => true,
        () => false,
      ));
  if (!removed) {
    // Not (or no longer) a worktree git knows, or one git refuses to remove: the folder goes
    // anyway, and git forgets every worktree whose folder is gone.
    await rm(root, { recursive: true, force: true });
    await place.exclusive(() => git(['worktree', 'prune'], { cwd }));
  }
  await git(['update-ref', '-d', `${place.refPrefix}${name}`], { cwd });
  await rm(path.join(place.home, `${name}.json`), { force: true });
}

/**
 * Marks an entry as kept for the person by `sessionId` (see OwnerMarker `keptFor`): sweep() leaves
 * it after its process ends. False when the entry has no marker (it is being removed).
 */
export async function keepEntry(place: EntryPlace, name: string, sessionId: string): Promise<boolean> {
  const file = path.join(place.home, `${name}.json`);
  const marker = await readOwnerMarker(file);
  if (marker === null) return false;
  if (marker.keptFor === sessionId) return true;
  await replaceOwnerMarker(file, { ...marker, keptFor: sessionId }, scratchPath(place, 'marker'));
  return true;
}

/** The entries kept for `sessionId` whose worktree folder is still there, oldest name first. */
export async function keptEntries(place: EntryPlace, sessionId: string): Promise<{ name: string; marker: OwnerMarker }[]> {
  const kept: { name: string; marker: OwnerMarker }[] = [];
  for (const entry of (await readdir(place.home).catch(() => [] as string[])).sort()) {
    if (!entry.endsWith('.json') || entry.startsWith(SCRATCH_PREFIX)) continue;
    const name = entry.slice(0, -'.json'.length);
    const marker = await readOwnerMarker(path.join(place.home, entry));
    if (marker?.keptFor === sessionId && existsSync(path.join(place.home, name))) kept.push({ name, marker });
  }
  return kept;
}

export interface SweepOptions {
  /** Whether the session a worktree was kept for is gone (deleted): then its worktree is abandoned too. */
  sessionGone?: (sessionId: string) => boolean;
}

/**
 * Removes the abandoned entries: those whose Keel process has ended (no marker, or its pid gone)
 * unless kept for a session that still exists and still there, their scratch folders, refs left
 * without a worktree, and git's records of missing worktrees. Returns how many entries it removed.
 */
export async function sweepEntries(place: EntryPlace, options: SweepOptions = {}): Promise<number> {
  const names = await readdir(place.home).catch(() => [] as string[]);
  const live = new Set<string>();
  const dead = new Set<string>();
  for (const entry of names) {
    if (entry.startsWith(SCRATCH_PREFIX)) {
      const pid = Number(entry.slice(SCRATCH_PREFIX.length).split('-')[0]);
      if (!processAlive(pid)) await rm(path.join(place.home, entry), { recursive: true, force: true });
      continue;
    }
    const name = entry.endsWith('.json') ? entry.slice(0, -'.json'.length) : entry;
    if (live.has(name) || dead.has(name)) continue;
    const marker = await readOwnerMarker(path.join(place.home, `${name}.json`));
    if (marker !== null && isStillWanted(place, name, marker, options)) live.add(name);
    else dead.add(name);
  }
  for (const name of dead) await removeEntry(place, name);
  // A crash between the ref and the worktree leaves a ref alone.
  const refs = await gitLine(['for-each-ref', '--format=%(refname)', place.refPrefix], { cwd: place.workspace });
  for (const ref of refs.split('\n').filter(Boolean)) {
    if (!live.has(ref.slice(place.refPrefix.length))) await git(['update-ref', '-d', ref], { cwd: place.workspace });
  }
  await place.exclusive(() => git(['worktree', 'prune'], { cwd: place.workspace }));
  return dead.size;
}

/** A live Keel's entry, or one kept for the person: its folder there and its session not deleted. */
function isStillWanted(place: EntryPlace, name: string, marker: OwnerMarker, options: SweepOptions): boolean {
  if (marker.keptFor !== undefined) return existsSync(path.join(place.home, name)) && !options.sessionGone?.(marker.keptFor);
  return processAlive(marker.pid);
}

/** A scratch folder of this process for the length of `work` (a temporary index, a merge's three files). */
export async function withScratch<T>(place: EntryPlace, work: (scratch: string) => Promise<T>): Promise<T> {
  const scratch = scratchPath(place);
  await mkdir(scratch, { recursive: true });
  try {
    return await work(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A new scratch path of this process (`sweep()` deletes those of processes that are gone). */
export function scratchPath(place: EntryPlace, what = 'work'): string {
  return path.join(place.home, `${SCRATCH_PREFIX}${process.pid}-${what}-${randomBytes(4).toString('hex')}`);
}
