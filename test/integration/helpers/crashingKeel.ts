// Run by helperCleanup.test.ts in a process of its own: makes a helper worktree, says where, then
// waits to be killed, like a Keel that crashes while a helper works.
import { HelperWorktrees } from '../../../main/helpers/git';

const [workspace, dataDir] = process.argv.slice(2) as [string, string];
const wt = await new HelperWorktrees({ workspace, dataDir }).create('helper-1');
process.stdout.write(`${JSON.stringify(wt)}\n`);
setInterval(() => undefined, 1000);
