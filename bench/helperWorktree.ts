import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HelperWorktrees } from '../main/helpers/git';
import { OPEN_FOR_MS, timeDelegates } from './delegateFirstRequest';
import { QUICK, sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const FILES = sized(10_000, 200);
const RUNS = sized(5, 1);
/** Helpers delegated one after another for the delegate-to-first-request figure. */
const DELEGATES = sized(3, 1);
/** Uncommitted edits and untracked files in the folder when a helper starts. */
const DIRTY = 20;
const GOAL_MS = 1000;

/**
 * A helper's worktree on a FILES-file repository with uncommitted edits: create() (snapshot of the
 * folder + `git worktree add`), beside plain `git worktree add` of HEAD as the baseline, then what
 * a finished helper costs: changedFiles, merge of a few files, remove; then, through the core and
 * the scripted model, a delegate call to its helper's first request. Prints figures only.
 */
export async function benchHelperWorktree(): Promise<void> {
  heading(`Helper worktrees on a ${FILES.toLocaleString('en')}-file git repository`);
  const top = mkdtempSync(join(tmpdir(), 'keel-bench-helpers-'));
  try {
    const repo = join(top, 'repo');
    const dataDir = join(top, 'data');
    const built = performance.now();
    buildRepo(repo);
    console.log(`repository: ${FILES} files committed, ${DIRTY} edited + ${DIRTY} untracked (built in ${formatMs(performance.now() - built)})`);

    const plain: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const target = join(top, `plain-${run}`);
      const started = performance.now();
      execFileSync('git', ['worktree', 'add', '--detach', '--quiet', target, 'HEAD'], { cwd: repo });
      plain.push(performance.now() - started);
      execFileSync('git', ['worktree', 'remove', '--force', target], { cwd: repo });
    }

    const worktrees = new HelperWorktrees({ workspace: repo, dataDir });
    const creates: number[] = [];
    const finishes: { changed: number; merge: number; remove: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      const wt = await worktrees.create(`helper-${run}`);
      creates.push(performance.now() - started);
      for (let i = 0; i < 5; i++) writeFileSync(join(wt.path, 'src', `file${i}.ts`), `export const edited${i} = ${run};\n`);
      started = performance.now();
      await worktrees.changedFiles(wt);
      const changed = performance.now() - started;
      started = performance.now();
      const outcome = await worktrees.merge(wt, 'theirs');
      const merge = performance.now() - started;
      if (outcome.kind !== 'merged') throw new Error(`the helper's five files did not merge: ${JSON.stringify(outcome)}`);
      started = performance.now();
      await worktrees.remove(wt);
      finishes.push({ changed, merge, remove: performance.now() - started });
    }

    // With a ready worktree (spares: 1): the spare is made ahead (prepare), create() takes it.
    const pooled = new HelperWorktrees({ workspace: repo, dataDir, spares: 1 });
    const prepares: number[] = [];
    const fromSpare: number[] = [];
    const backgroundRemoves: number[] = [];
    let started = 0;
    for (let run = 0; run < RUNS; run++) {
      started = performance.now();
      await pooled.prepare();
      prepares.push(performance.now() - started);
      // The person edits a few files after the spare was made: the checkout rewrites only those.
      for (let i = 0; i < 3; i++) writeFileSync(join(repo, `untracked${i}.txt`), `edited after the spare, run ${run}\n`);
      started = performance.now();
      const wt = await pooled.create(`pooled-${run}`);
      fromSpare.push(performance.now() - started);
      started = performance.now();
      await pooled.remove(wt, { background: true });
      backgroundRemoves.push(performance.now() - started);
    }
    started = performance.now();
    await pooled.dispose();
    const disposed = performance.now() - started;

    const stat = (samples: number[]) => `median ${formatMs(percentile(samples, 50))}, max ${formatMs(Math.max(...samples))}`;
    const verdict = (samples: number[]) => (percentile(samples, 50) < GOAL_MS ? 'met' : 'NOT met');
    console.log(`git worktree add of HEAD (baseline): ${stat(plain)} (${RUNS} run${RUNS === 1 ? '' : 's'})`);
    console.log(`create(), no spare (snapshot with uncommitted files + full checkout): ${stat(creates)} — goal < ${GOAL_MS} ms: ${verdict(creates)}`);
    console.log(
      `create() from a ready spare (snapshot + worktree move + checkout of the difference): ${stat(fromSpare)} — goal < ${GOAL_MS} ms: ${verdict(fromSpare)}`,
    );
    console.log(`prepare() (making the spare ahead, off the helper's path): ${stat(prepares)}`);
    console.log(`changedFiles (5 edits): ${stat(finishes.map((f) => f.changed))}`);
    console.log(`merge (5 files): ${stat(finishes.map((f) => f.merge))}`);
    console.log(`remove: ${stat(finishes.map((f) => f.remove))}`);
    console.log(
      `remove in the background (git's record, ref, marker; files deleted after): ${stat(backgroundRemoves)}; dispose() then took ${formatMs(disposed)}`,
    );

    // Through the core, the SDK and the scripted model: a delegate call to its helper's first
    // request, which does not wait for the checkout, and to its first tool result, which does.
    const delegates = await timeDelegates((workspace) => buildRepo(workspace), DELEGATES);
    const size = QUICK ? `${FILES} files: quick mode, not the 10,000 of the goal` : `${FILES.toLocaleString('en')} files`;
    const first = delegates.map((d) => d.firstRequest);
    console.log(
      `delegate to the helper's first request (${size}, ${DELEGATES} helper${DELEGATES === 1 ? '' : 's'}, the folder open ${OPEN_FOR_MS / 1000} s before): ${stat(first)} — goal < ${GOAL_MS} ms: ${verdict(first)}`,
    );
    console.log(`delegate to its first tool result (that tool waited for the worktree's checkout): ${stat(delegates.map((d) => d.firstToolResult))}`);
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

function buildRepo(repo: string): void {
  mkdirSync(join(repo, 'src'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < FILES; i++) {
    const dir = join(repo, `pkg${i % 50}`, `mod${i % 7}`);
    if (i < 350) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `// file ${i}\nexport const value${i} = ${i};\n${'// filler line\n'.repeat(20)}`);
  }
  for (let i = 0; i < 5; i++) writeFileSync(join(repo, 'src', `file${i}.ts`), `export const value${i} = ${i};\n`);
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  for (let i = 0; i < DIRTY; i++) {
    writeFileSync(join(repo, `pkg${i % 50}`, `mod${i % 7}`, `file${i}.ts`), `// edited, not committed ${i}\n`);
    writeFileSync(join(repo, `untracked${i}.txt`), `untracked ${i}\n`);
  }
}
