// Run by helperCleanup.test.ts in a process of its own: makes a helper worktree (kept for the
// person of session `keptFor` when given, as after a conflict), says where, then waits to be
// killed, like a Keel that crashes while a helper works, or that quits with a worktree kept.
import { HelperWorktrees } from '../../../main/helpers/git';

const [workspace, dataDir, keptFor] = process.argv.slice(2) as [string, string, string | undefined];
const worktrees = new HelperWorktrees({ workspace, dataDir });
const wt = await worktrees.create('helper-1');
if (keptFor) await worktrees.keep(wt, keptFor);
process.stdout.write(`${JSON.stringify(wt)}\n`);
setInterval(() => undefined, 1000);
