import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, realpath, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileState } from './fileState';
import { git, gitLine, HelperGitError } from './gitCommand';
import { chooseWrites, planFiles, type MergeStrategy, type PlannedFile } from './mergePlan';
import { locateRepository, type WorkspaceRepository } from './repository';
import { SharedSnapshots } from './sharedSnapshots';
import { snapshotChanges, snapshotCommit, snapshotTree } from './snapshot';
import { SparePool, type SpareWorktree } from './sparePool';
import type { TreeChange } from './treeDiff';
import {
  claimEntryName,
  claimSpareName,
  keepEntry,
  keptEntries,
  removeEntry,
  scratchPath,
  sweepEntries,
  withScratch,
  type EntryPlace,
  type SweepOptions,
} from './worktreeEntries';
import { FolderMovedError, writeStates } from './writeStates';

export type { MergeStrategy } from './mergePlan';

export interface HelperWorktree {
  helperId: string;
  /** The helper's folder: the workspace's counterpart inside the worktree (its tools' workspace). */
  path: string;
  /** The worktree's top (equal to `path` unless the workspace is a subfolder of its repository). */
  root: string;
  /** commit of the folder as it was when the helper started (uncommitted and untracked-not-ignored files included) */
  base: string;
}

/** A helper's worktree whose place is claimed and whose checkout may still be under way. */
export interface PendingWorktree {
  helperId: string;
  /** Where the helper's folder will be (see HelperWorktree.path); it may not exist before `ready`. */
  path: string;
  root: string;
  ready: Promise<HelperWorktree>;
}

export type MergeOutcome =
  /**
   * Applied into the folder. `files`: every file the helper changed (workspace-relative).
   * `conflicted`: those that overlapped and were written per the strategy ('theirs': the helper's
   * version; 'markers': with conflict markers); absent for a clean merge.
   */
  | { kind: 'merged'; files: string[]; conflicted?: string[] }
  | { kind: 'nothing' }
  /** Nothing was written: every file of the folder is byte for byte as it was. */
  | { kind: 'conflict'; files: string[] };

export interface VersionFile {
  path: string;
  /** In the helper's worktree; null: it deleted the file. */
  theirs: string | null;
  /** When the helper started; null: the file did not exist then. */
  base: string | null;
  /** In the folder now; null: absent. */
  ours: string | null;
  conflict: boolean;
}

const HELPER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const SNAPSHOT_MESSAGE = 'Keel: the folder when a helper started';
/** How many times a merge is planned when the folder keeps changing under it. */
const MERGE_PLANS = 3;

interface WorkspaceContext extends EntryPlace {
  repo: WorkspaceRepository;
}

/**
 * The git worktrees of one workspace's helpers: each made from a snapshot of the folder (its
 * uncommitted changes included), kept outside the workspace under
 * `<dataDir>/worktrees/<hash of workspace>/<name>`, merged back three-way, removed without a trace.
 */
export class HelperWorktrees {
  private located: Promise<WorkspaceContext> | null = null;
  private merging: Promise<unknown> = Promise.resolve();
  private readonly spares: SparePool;
  private structural: Promise<unknown> = Promise.resolve();
  /** The folder's snapshots, shared by the helpers that start while one is being taken. */
  private readonly snapshots = new SharedSnapshots(async () => this.takeSnapshot(await this.context()));
  /** What changedFiles() found last, per worktree root (merge's `asListed`). */
  private readonly listed = new Map<string, TreeChange[]>();
  /** Removed worktrees' files still being deleted (remove with `background`). */
  private readonly deleting = new Set<Promise<void>>();

  /**
   * `spares`: how many ready worktrees to keep (default 0: each helper waits for a checkout of the
   * whole repository; with one or more, `create()` takes one and rewrites only what differs).
   */
  constructor(private readonly options: { workspace: string; dataDir: string; spares?: number }) {
    this.spares = new SparePool(
      () => this.makeSpare(),
      async (spare) => removeEntry(await this.context(), spare.name),
      options.spares ?? 0,
    );
  }

  /** A new worktree holding the folder as it is now. */
  async create(helperId: string): Promise<HelperWorktree> {
    return (await this.begin(helperId)).ready;
  }

  /**
   * Claims the helper's place (its name and marker: milliseconds) and starts making its worktree,
   * so that the helper can start before the checkout ends. `ready` rejects when the worktree could
   * not be made, and then nothing of it is left (folder, git's record, ref, marker).
   */
  async begin(helperId: string): Promise<PendingWorktree> {
    if (!HELPER_ID.test(helperId)) throw new HelperGitError('bad_helper_id', `not a helper id: ${JSON.stringify(helperId)}`);
    const place = await this.context();
    const name = await claimEntryName(place, helperId);
    const root = path.join(place.home, name);
    const prefixParts = place.repo.prefix.split('/').filter(Boolean);
    const folder = path.join(root, ...prefixParts);
    const ready = this.build(place, name, root).then((base) => ({ helperId, root, path: folder, base }));
    // Awaited by whoever uses the worktree; a helper stopped before that must not make it unhandled.
    ready.catch(() => undefined);
    return { helperId, root, path: folder, ready };
  }

  /** The snapshot, its ref and the checkout into `root`; on failure the entry goes whole. */
  private async build(place: WorkspaceContext, name: string, root: string): Promise<string> {
    try {
      const base = await this.snapshots.request();
      // The ref keeps the snapshot from gc until remove(); the worktree's HEAD alone would too,
      // but not once a helper moves it.
      await git(['update-ref', `${place.refPrefix}${name}`, base], { cwd: place.workspace });
      if (!(await this.useSpare(place, root, base))) await addWorktree(place, root, base);
      return base;
    } catch (error) {
      await removeEntry(place, name);
      throw error;
    }
  }

  /** Workspace-relative paths the helper changed against its base (new, deleted and untracked files included). */
  async changedFiles(wt: HelperWorktree): Promise<string[]> {
    const changes = await this.helperChanges(wt);
    this.listed.set(wt.root, changes);
    return changes.map((change) => change.path).sort();
  }

  /**
   * Merges the helper's changes into the folder: base = wt.base, ours = the folder now, theirs =
   * the worktree now. Merges run one at a time, so a second helper merges against the first's
   * result; what the helper changed is looked up before its turn (it does not depend on the
   * folder). `asListed`: the paths changedFiles() listed last, not looked up again (the helper's
   * loop ended since: its listed files are what the change records saw before the merge).
   */
  merge(wt: HelperWorktree, strategy: MergeStrategy = 'three_way', options: { asListed?: boolean } = {}): Promise<MergeOutcome> {
    const listed = options.asListed ? this.listed.get(wt.root) : undefined;
    const changes = listed ? Promise.resolve(listed) : this.helperChanges(wt);
    // Awaited in its turn; until then a failure must not count as unhandled.
    changes.catch(() => undefined);
    const run = this.merging.then(async () => {
      const listedChanges = await changes;
      return replanOnMove(() => this.mergeNow(wt, strategy, listedChanges));
    });
    this.merging = run.catch(() => undefined);
    return run;
  }

  /** Each changed file's three versions, as `helper.openVersion` shows them. */
  async version(wt: HelperWorktree): Promise<VersionFile[]> {
    const files = await this.plan(wt);
    return files.map((file) => ({
      path: file.path,
      theirs: asText(file.theirs),
      base: asText(file.base),
      ours: asText(file.ours),
      conflict: file.resolution.kind === 'conflict',
    }));
  }

  /**
   * Removes the worktree, its git metadata, its ref and its marker. Deleting every file of a large
   * worktree takes seconds; with `background`, the folder is renamed into a scratch folder at once
   * (git's record, the ref and the marker go before this resolves) and its files are deleted
   * afterwards: `dispose()` waits for that, and a crash leaves it to `sweep()`.
   */
  async remove(wt: HelperWorktree, options: { background?: boolean } = {}): Promise<void> {
    const place = await this.context();
    const name = path.basename(wt.root);
    let folderGone = false;
    if (options.background) {
      const trash = scratchPath(place, 'removed');
      const moved = await rename(wt.root, trash).then(
        () => true,
        () => false,
      );
      if (moved) {
        folderGone = true;
        const deleting = rm(trash, { recursive: true, force: true, maxRetries: 2 })
          .catch(() => undefined)
          .finally(() => this.deleting.delete(deleting));
        this.deleting.add(deleting);
      }
    }
    await removeEntry(place, name, { folderGone });
    this.listed.delete(wt.root);
  }

  /**
   * At start-up: removes this workspace's worktrees whose Keel process has ended (a crash), and
   * what git still records of them. Worktrees kept for the person (keep()) stay, unless
   * `sessionGone` says their session was deleted. Returns how many worktrees it removed.
   */
  async sweep(options: SweepOptions = {}): Promise<number> {
    let place: WorkspaceContext;
    try {
      place = await this.context();
    } catch {
      return 0;
    }
    return sweepEntries(place, options);
  }

  /**
   * Keeps the worktree for the person of session `sessionId` (a conflict, a stopped helper's
   * changes): it outlives this process, sweep() leaves it, and kept() finds it again.
   */
  async keep(wt: HelperWorktree, sessionId: string): Promise<void> {
    const place = await this.context();
    if (!(await keepEntry(place, path.basename(wt.root), sessionId)))
      throw new HelperGitError('worktree_missing', `${wt.helperId}'s worktree ${wt.root} has no marker: it is being removed`);
  }

  /** The worktrees kept for session `sessionId` (by any run of Keel), as create() gave them. */
  async kept(sessionId: string): Promise<HelperWorktree[]> {
    const place = await this.context();
    const found: HelperWorktree[] = [];
    const prefixParts = place.repo.prefix.split('/').filter(Boolean);
    for (const { name, marker } of await keptEntries(place, sessionId)) {
      const base = await gitLine(['rev-parse', '--verify', '-q', `${place.refPrefix}${name}^{commit}`], { cwd: place.workspace }).catch(() => '');
      // Without its ref the base is unknown: nothing could be merged three-way.
      if (base === '') continue;
      const root = path.join(place.home, name);
      found.push({ helperId: marker.helperId, root, path: path.join(root, ...prefixParts), base });
    }
    return found;
  }

  /** Removes every worktree kept for session `sessionId` (the session is deleted). Returns how many. */
  async removeKept(sessionId: string): Promise<number> {
    const place = await this.context();
    const kept = await keptEntries(place, sessionId);
    for (const { name } of kept) await removeEntry(place, name);
    return kept.length;
  }

  /** Makes ready worktrees (`count`, default the `spares` option or 1) so the next helpers start at once. */
  async prepare(count = Math.max(1, this.options.spares ?? 0)): Promise<void> {
    await this.context();
    await this.spares.fill(count);
  }

  /** Removes the ready worktrees (helpers' own worktrees stay until remove()). */
  async dispose(): Promise<void> {
    await this.spares.dispose();
    await Promise.all([...this.deleting]);
  }

  private async mergeNow(wt: HelperWorktree, strategy: MergeStrategy, changes: TreeChange[]): Promise<MergeOutcome> {
    const place = await this.context();
    const files = await this.plan(wt, changes);
    if (files.length === 0) return { kind: 'nothing' };
    const { writes, conflicted, unwritable } = chooseWrites(files, strategy);
    if (strategy === 'three_way' && conflicted.length > 0) return { kind: 'conflict', files: conflicted };
    if (unwritable.length > 0) return { kind: 'conflict', files: unwritable };
    await writeStates(place.workspace, writes);
    const paths = files.map((file) => file.path);
    return conflicted.length > 0 ? { kind: 'merged', files: paths, conflicted } : { kind: 'merged', files: paths };
  }

  private async plan(wt: HelperWorktree, changes?: TreeChange[]): Promise<PlannedFile[]> {
    const place = await this.context();
    changes ??= await this.helperChanges(wt);
    return withScratch(place, (scratch) =>
      planFiles({
        workspace: place.workspace,
        helperFolder: wt.path,
        prefix: place.repo.prefix,
        changes,
        scratch,
        labels: { ours: 'folder', base: 'when the helper started', theirs: wt.helperId },
      }),
    );
  }

  /** The helper's folder snapshotted like the workspace (a copy of its own index), against its base. */
  private async helperChanges(wt: HelperWorktree): Promise<TreeChange[]> {
    const place = await this.context();
    if (!existsSync(wt.path)) throw new HelperGitError('worktree_missing', `${wt.helperId}'s worktree ${wt.path} is gone`);
    const indexFile = await worktreeIndexFile(wt);
    return withScratch(place, (scratch) => snapshotChanges({ folder: wt.path, indexFile, scratch }, wt.base));
  }

  private takeSnapshot(place: WorkspaceContext): Promise<string> {
    return withScratch(place, async (scratch) => {
      const tree = await snapshotTree({ folder: place.workspace, indexFile: place.repo.indexFile, scratch });
      return snapshotCommit(place.workspace, tree, SNAPSHOT_MESSAGE);
    });
  }

  /**
   * Moves a ready worktree to `root` and checks out the snapshot in it, rewriting only the files
   * that differ from the spare's older snapshot. False when there is no spare (or it failed).
   */
  private async useSpare(place: WorkspaceContext, root: string, commit: string): Promise<boolean> {
    const spare = await this.spares.take();
    if (spare === null) return false;
    try {
      await place.exclusive(() => git(['worktree', 'move', spare.root, root], { cwd: place.workspace }));
    } catch {
      await removeEntry(place, spare.name);
      return false;
    }
    // The spare's marker goes; the helper's own, written before, now owns the moved worktree.
    await rm(path.join(place.home, `${spare.name}.json`), { force: true });
    try {
      // Nobody worked in the spare, so --force only makes it exactly the snapshot.
      await git(['checkout', '--detach', '--force', '--quiet', commit], { cwd: root });
      return true;
    } catch {
      // Only the worktree goes: the helper's marker and ref stay for the full checkout instead.
      const cwd = place.workspace;
      await git(['worktree', 'remove', '--force', '--force', root], { cwd }).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
      await place.exclusive(() => git(['worktree', 'prune'], { cwd }));
      return false;
    }
  }

  private async makeSpare(): Promise<SpareWorktree> {
    const place = await this.context();
    const name = await claimSpareName(place);
    const root = path.join(place.home, name);
    try {
      const commit = await this.snapshots.request();
      // The worktree's HEAD keeps its commit from gc; a spare needs no ref of its own.
      await addWorktree(place, root, commit);
      return { name, root, commit };
    } catch (error) {
      await removeEntry(place, name);
      throw error;
    }
  }

  /** One at a time: a worktree move, and whatever prunes git's worktree records (see EntryPlace). */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.structural.then(work);
    this.structural = run.catch(() => undefined);
    return run;
  }

  /** The repository, this workspace's key (its real path hashed) and where its worktrees live. */
  private context(): Promise<WorkspaceContext> {
    this.located ??= locateWorkspace(this.options, (work) => this.exclusive(work));
    // A failed look-up is asked again next time (git may have been installed, the folder made a repository).
    this.located.catch(() => (this.located = null));
    return this.located;
  }
}

/**
 * Worktrees live in `<dataDir>/worktrees/<hash>`, or in the temporary folder's when Keel's data
 * folder is itself inside the repository's work tree: a worktree there would show in the person's
 * `git status`, and inside the workspace in the helper's own searches.
 */
async function locateWorkspace(options: { workspace: string; dataDir: string }, exclusive: EntryPlace['exclusive']): Promise<WorkspaceContext> {
  const repo = await locateRepository(options.workspace);
  const key = createHash('sha256').update(repo.workspace).digest('hex').slice(0, 16);
  const dataDir = await realpath(options.dataDir).catch(() => path.resolve(options.dataDir));
  const inside = dataDir === repo.root || dataDir.startsWith(repo.root + path.sep);
  const base = inside ? path.join(tmpdir(), 'keel-helper-worktrees') : path.join(dataDir, 'worktrees');
  return { repo, workspace: repo.workspace, home: path.join(base, key), refPrefix: `refs/keel/helpers/${key}/`, exclusive };
}

/**
 * The worktree's own index: `<root>/.git` names its git folder (`gitdir: …`), which holds it. Read
 * from the file, as git does, instead of asking git (a process); git is asked when that file is
 * not what git writes (the helper replaced it).
 */
async function worktreeIndexFile(wt: HelperWorktree): Promise<string> {
  const pointer = await readFile(path.join(wt.root, '.git'), 'utf8').catch(() => '');
  const gitDir = /^gitdir: (.+)\n?$/.exec(pointer)?.[1];
  if (gitDir && existsSync(path.resolve(wt.root, gitDir))) return path.join(path.resolve(wt.root, gitDir), 'index');
  return path.resolve(wt.path, await gitLine(['rev-parse', '--git-path', 'index'], { cwd: wt.path }));
}

function asText(state: FileState): string | null {
  if (state.kind === 'file') return state.bytes.toString('utf8');
  if (state.kind === 'link') return state.target;
  return null;
}

/**
 * A merge whose folder changed between its plan and its write (an agent's write: FolderMovedError,
 * nothing written) is planned again against the folder as it is now; a folder that keeps changing
 * is left to the person as a conflict, with nothing written.
 */
/**
 * A detached worktree of `commit` at `root`. `git worktree add` reads every worktree's admin
 * folder, and fails on one another add is making at that moment ("failed to read
 * .git/worktrees/<name>/commondir"): the admin folders are made one at a time, without a
 * checkout, and the checkouts (the slow part) then run side by side.
 */
async function addWorktree(place: WorkspaceContext, root: string, commit: string): Promise<void> {
  await place.exclusive(() => git(['worktree', 'add', '--detach', '--quiet', '--no-checkout', root, commit], { cwd: place.workspace }));
  await git(['reset', '--hard', '--quiet'], { cwd: root });
}

async function replanOnMove(mergeOnce: () => Promise<MergeOutcome>): Promise<MergeOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await mergeOnce();
    } catch (error) {
      if (!(error instanceof FolderMovedError)) throw error;
      if (attempt >= MERGE_PLANS) return { kind: 'conflict', files: [error.path] };
    }
  }
}
