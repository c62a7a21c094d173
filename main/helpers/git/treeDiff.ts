import { git } from './gitCommand';

/** One side of a changed path in a tree: absent, or its git mode and blob. */
export type TreeEntry = { mode: string; oid: string } | null;

export interface TreeChange {
  /** Relative to the folder the diff ran in, forward slashes. */
  path: string;
  before: TreeEntry;
  after: TreeEntry;
}

const ABSENT_MODE = '000000';
const SUBMODULE_MODE = '160000';

/**
 * What changed between two trees, inside the folder `cwd` (relative to it), renames as a delete
 * and an add. Submodule entries are left out: a helper's worktree does not check them out.
 */
export async function diffTrees(cwd: string, before: string, after: string): Promise<TreeChange[]> {
  const out = await git(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--relative', before, after, '--', '.'], { cwd });
  return parseRawDiff(out.stdout);
}

/** What changed between the commit `before` and the index `env` names (GIT_INDEX_FILE), inside `cwd`, as diffTrees says it. */
export async function diffIndex(cwd: string, before: string, env: Record<string, string>): Promise<TreeChange[]> {
  const out = await git(['diff-index', '--cached', '-z', '--raw', '--no-renames', '--relative', before, '--', '.'], { cwd, env });
  return parseRawDiff(out.stdout);
}

/** `:<mode> <mode> <oid> <oid> <status>\0<path>\0` per change; submodules left out. */
function parseRawDiff(stdout: Buffer): TreeChange[] {
  const fields = stdout.toString('utf8').split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i]!;
    const filePath = fields[i + 1]!;
    const [modeBefore, modeAfter, oidBefore, oidAfter] = meta.slice(1).split(' ');
    if (!modeBefore || !modeAfter || !oidBefore || !oidAfter) continue;
    if (modeBefore === SUBMODULE_MODE || modeAfter === SUBMODULE_MODE) continue;
    changes.push({
      path: filePath,
      before: modeBefore === ABSENT_MODE ? null : { mode: modeBefore, oid: oidBefore },
      after: modeAfter === ABSENT_MODE ? null : { mode: modeAfter, oid: oidAfter },
    });
  }
  return changes;
}
