import { benchAgentLoop } from './agentLoop';
import { benchBashThroughput } from './bashThroughput';
import { benchBoardRoundTrip } from './boardRoundTrip';
import { benchChatStreaming } from './chatStreaming';
import { benchContextWindow } from './contextWindow';
import { benchFileTools } from './fileTools';
import { benchSandbox } from './sandbox';
import { benchSearch } from './search';
import { benchMentions } from './mentions';
import { benchMcp } from './mcp';
import { benchTerminalThroughput } from './terminalThroughput';
import { benchValidator } from './validator';
import { benchWindowStartup } from './windowStartup';

// `npm run bench`: figures and same-run baselines, printed. Nothing here asserts a timing.
// `--quick`: small sizes and a few runs, to prove in CI that every bench still measures.
const args = process.argv.slice(2);
if (args.includes('--quick')) process.env.KEEL_BENCH_QUICK = '1';
const only = args.filter((arg) => arg !== '--quick');
const benches: Record<string, () => unknown> = {
  validator: benchValidator,
  board: benchBoardRoundTrip,
  agentLoop: benchAgentLoop,
  fileTools: benchFileTools,
  bashThroughput: benchBashThroughput,
  window: benchWindowStartup,
  chat: benchChatStreaming,
  terminal: benchTerminalThroughput,
  contextWindow: benchContextWindow,
  search: benchSearch,
  mentions: benchMentions,
  mcp: benchMcp,
  sandbox: benchSandbox,
};

const failed: string[] = [];
for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  try {
    await run();
  } catch (error) {
    // A bench that cannot measure says why; the others still run, and the whole run fails.
    console.error(`bench ${name} could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    failed.push(name);
  }
}
if (failed.length > 0) {
  console.error(`${failed.length} bench(es) failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
