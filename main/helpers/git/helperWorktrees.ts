import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ABSENT, readDiskState, readTreeState, type FileState } from './fileState';
import { git, gitLine, HelperGitError } from './gitCommand';
import { processAlive, readOwnerMarker, writeOwnerMarker } from './ownerMarker';
import { locateRepository, type WorkspaceRepository } from './repository';
import { resolveFile, type Resolution } from './resolveFile';
import { snapshotCommit, snapshotTree } from './snapshot';
import { diffTrees } from './treeDiff';
import { writeStates, type PlannedWrite } from './writeStates';

export interface HelperWorktree {
  helperId: string;
  /** The helper's folder: the workspace's counterpart inside the worktree (its tools' workspace). */
  path: string;
  /** The worktree's top (equal to `path` unless the workspace is a subfolder of its repository). */
  root: string;
  /** commit of the folder as it was when the helper started (uncommitted and untracked-not-ignored files included) */
  base: string;
}

export type MergeStrategy = 'three_way' | 'theirs' | 'markers';

export type MergeOutcome =
  /**
   * Applied into the folder. `files`: every file the helper changed (workspace-relative).
   * `conflicted`: those that overlapped and were written per the strategy ('theirs': the helper's
   * version; 'markers': with conflict markers); absent or empty for a clean merge.
   */
  | { kind: 'merged'; files: string[]; conflicted?: string[] }
  | { kind: 'nothing' }
  /** Nothing was written: the folder is byte for byte as it was. */
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

interface PlannedFile {
  path: string;
  base: FileState;
  ours: FileState;
  theirs: FileState;
  resolution: Resolution;
}

/**
 * The git worktrees of one workspace's helpers: each made from a snapshot of the folder (its
 * uncommitted changes included), kept outside the workspace under
 * `<dataDir>/worktrees/<hash of workspace>/<name>`, merged back three-way, removed without a trace.
 */
export class HelperWorktrees {
  private located: Promise<WorkspaceContext> | null = null;
  private merging: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: { workspace: string; dataDir: string }) {}

  /** A new worktree holding the folder as it is now. */
  async create(helperId: string): Promise<HelperWorktree> {
    if (!HELPER_ID.test(helperId)) throw new HelperGitError('bad_helper_id', `not a helper id: ${JSON.stringify(helperId)}`);
    const repo = await this.repo();
    const home = await this.home();
    await mkdir(home, { recursive: true });
    const name = await this.claimName(home, helperId, repo.workspace);
    const root = path.join(home, name);
    const ref = await this.refOf(name);
    try {
      const base = await this.withScratch(async (scratch) => {
        const tree = await snapshotTree({ folder: repo.workspace, indexFile: repo.indexFile, scratch });
        return snapshotCommit(repo.workspace, tree, SNAPSHOT_MESSAGE);
      });
      // The ref keeps the snapshot from gc until remove(); the worktree's HEAD alone would too,
      // but not once a helper moves it.
      await git(['update-ref', ref, base], { cwd: repo.workspace });
      await git(['worktree', 'add', '--detach', '--quiet', root, base], { cwd: repo.workspace });
      return { helperId, root, path: repo.prefix === '' ? root : path.join(root, ...repo.prefix.split('/').filter(Boolean)), base };
    } catch (error) {
      await this.removeEntry(repo.workspace, home, name);
      throw error;
    }
  }

  /** Workspace-relative paths the helper changed against its base (new, deleted and untracked files included). */
  async changedFiles(wt: HelperWorktree): Promise<string[]> {
    return (await this.helperChanges(wt)).map((change) => change.path).sort();
  }

  /**
   * Merges the helper's changes into the folder: base = wt.base, ours = the folder now, theirs =
   * the worktree now. Merges run one at a time, so a second helper merges against the first's result.
   */
  merge(wt: HelperWorktree, strategy: MergeStrategy = 'three_way'): Promise<MergeOutcome> {
    const run = this.merging.then(() => this.mergeNow(wt, strategy));
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

  /** Removes the worktree, its git metadata, its ref and its marker. */
  async remove(wt: HelperWorktree): Promise<void> {
    const repo = await this.repo();
    await this.removeEntry(repo.workspace, await this.home(), path.basename(wt.root));
  }

  /**
   * At start-up: removes this workspace's worktrees whose Keel process has ended (a crash), and
   * what git still records of them. Returns how many worktrees it removed.
   */
  async sweep(): Promise<number> {
    let repo: WorkspaceRepository;
    try {
      repo = await this.repo();
    } catch {
      return 0;
    }
    const home = await this.home();
    let names: string[];
    try {
      names = await readdir(home);
    } catch {
      names = [];
    }
    const live = new Set<string>();
    const dead = new Set<string>();
    for (const entry of names) {
      if (entry.startsWith('.tmp-')) {
        const pid = Number(entry.split('-')[1]);
        if (!processAlive(pid)) await rm(path.join(home, entry), { recursive: true, force: true });
        continue;
      }
      const name = entry.endsWith('.json') ? entry.slice(0, -'.json'.length) : entry;
      if (live.has(name) || dead.has(name)) continue;
      const marker = await readOwnerMarker(path.join(home, `${name}.json`));
      if (marker !== null && processAlive(marker.pid)) live.add(name);
      else dead.add(name);
    }
    for (const name of dead) await this.removeEntry(repo.workspace, home, name);
    // Refs whose worktree is gone (a crash between the ref and the worktree).
    const { refPrefix } = await this.context();
    const refs = await gitLine(['for-each-ref', '--format=%(refname)', refPrefix], { cwd: repo.workspace });
    for (const ref of refs.split('\n').filter(Boolean)) {
      const name = ref.slice(refPrefix.length);
      if (!live.has(name) && !dead.has(name)) await git(['update-ref', '-d', ref], { cwd: repo.workspace });
    }
    await git(['worktree', 'prune'], { cwd: repo.workspace });
    return dead.size;
  }

  private async mergeNow(wt: HelperWorktree, strategy: MergeStrategy): Promise<MergeOutcome> {
    const repo = await this.repo();
    const files = await this.plan(wt);
    if (files.length === 0) return { kind: 'nothing' };
    const writes: PlannedWrite[] = [];
    const conflicted: string[] = [];
    const unwritable: string[] = [];
    for (const file of files) {
      const { resolution } = file;
      if (resolution.kind === 'keep') continue;
      if (resolution.kind === 'write') {
        writes.push({ path: file.path, before: file.ours, after: resolution.state });
        continue;
      }
      conflicted.push(file.path);
      const after = strategy === 'theirs' ? file.theirs : strategy === 'markers' ? resolution.markers : null;
      if (after === null || after.kind === 'blocked' || file.ours.kind === 'blocked') unwritable.push(file.path);
      else writes.push({ path: file.path, before: file.ours, after });
    }
    if (strategy === 'three_way' && conflicted.length > 0) return { kind: 'conflict', files: conflicted };
    if (unwritable.length > 0) return { kind: 'conflict', files: unwritable };
    await writeStates(repo.workspace, writes);
    const paths = files.map((file) => file.path);
    return conflicted.length > 0 ? { kind: 'merged', files: paths, conflicted } : { kind: 'merged', files: paths };
  }

  /** Every changed file with its three versions and how it merges. */
  private async plan(wt: HelperWorktree): Promise<PlannedFile[]> {
    const repo = await this.repo();
    const changes = await this.helperChanges(wt);
    return this.withScratch(async (scratch) => {
      const labels = { ours: 'folder', base: 'when the helper started', theirs: wt.helperId };
      const files: PlannedFile[] = [];
      for (const change of changes) {
        const [base, ours, theirs] = await Promise.all([
          readTreeState(wt.path, change.path, change.before),
          readDiskState(repo.workspace, change.path),
          change.after === null ? Promise.resolve(ABSENT) : readDiskState(wt.path, change.path),
        ]);
        files.push({ path: change.path, base, ours, theirs, resolution: await resolveFile(base, ours, theirs, { scratch, labels }) });
      }
      return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  }

  private async helperChanges(wt: HelperWorktree) {
    const indexFile = path.resolve(wt.path, await gitLine(['rev-parse', '--git-path', 'index'], { cwd: wt.path }));
    const tree = await this.withScratch((scratch) => snapshotTree({ folder: wt.path, indexFile, scratch }));
    return diffTrees(wt.path, wt.base, tree);
  }

  /** The first free `<helperId>`, `<helperId>-2`, … of this workspace, claimed by writing its marker. */
  private async claimName(home: string, helperId: string, workspace: string): Promise<string> {
    const taken = new Set(await readdir(home));
    for (let n = 1; ; n++) {
      const name = n === 1 ? helperId : `${helperId}-${n}`;
      if (taken.has(name) || taken.has(`${name}.json`)) continue;
      const markerFile = path.join(home, `${name}.json`);
      try {
        await writeOwnerMarker(markerFile, { pid: process.pid, helperId, workspace, createdAt: new Date().toISOString() });
        return name;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  private async removeEntry(workspace: string, home: string, name: string): Promise<void> {
    const root = path.join(home, name);
    try {
      await git(['worktree', 'remove', '--force', '--force', root], { cwd: workspace });
    } catch {
      // Not (or no longer) a worktree git knows, or one git refuses to remove: the folder goes anyway.
    }
    await rm(root, { recursive: true, force: true });
    await git(['worktree', 'prune'], { cwd: workspace });
    await git(['update-ref', '-d', await this.refOf(name)], { cwd: workspace });
    await rm(path.join(home, `${name}.json`), { force: true });
  }

  private async withScratch<T>(work: (scratch: string) => Promise<T>): Promise<T> {
    const scratch = path.join(await this.home(), `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(scratch, { recursive: true });
    try {
      return await work(scratch);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private repo(): Promise<WorkspaceRepository> {
    return this.context().then((context) => context.repo);
  }

  /** The repository, this workspace's key (its real path hashed) and where its worktrees live. */
  private context(): Promise<WorkspaceContext> {
    this.located ??= locateWorkspace(this.options);
    // A failed look-up is asked again next time (git may have been installed, the folder made a repository).
    this.located.catch(() => (this.located = null));
    return this.located;
  }

  private async home(): Promise<string> {
    return (await this.context()).home;
  }

  private async refOf(name: string): Promise<string> {
    return `${(await this.context()).refPrefix}${name}`;
  }
}

interface WorkspaceContext {
  repo: WorkspaceRepository;
  home: string;
  /** `refs/keel/helpers/<hash>/`: the refs that keep this workspace's snapshots. */
  refPrefix: string;
}

/**
 * Worktrees live in `<dataDir>/worktrees/<hash>`, or in the temporary folder's when Keel's data
 * folder is itself inside the repository's work tree: a worktree there would show in the person's
 * `git status`, and inside the workspace in the helper's own searches.
 */
async function locateWorkspace(options: { workspace: string; dataDir: string }): Promise<WorkspaceContext> {
  const repo = await locateRepository(options.workspace);
  const key = createHash('sha256').update(repo.workspace).digest('hex').slice(0, 16);
  const dataDir = await realpath(options.dataDir).catch(() => path.resolve(options.dataDir));
  const inside = dataDir === repo.root || dataDir.startsWith(repo.root + path.sep);
  const base = inside ? path.join(tmpdir(), 'keel-helper-worktrees') : path.join(dataDir, 'worktrees');
  return { repo, home: path.join(base, key), refPrefix: `refs/keel/helpers/${key}/` };
}

function asText(state: FileState): string | null {
  if (state.kind === 'file') return state.bytes.toString('utf8');
  if (state.kind === 'link') return state.target;
  return null;
}
