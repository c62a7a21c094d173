import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedAnthropic, text, toolUse } from '../test/support/scriptedAnthropic';
import { tempDir } from '../test/e2e/support/keelWeb';
import { sized } from './quick';
import { benchTree } from './searchTree';
import { heading } from './stats';

const TRIALS = sized(3, 1);
const KEY = 'sk-bench-search-cold-0000000';
const bin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** The first searches of a session, as the model asks for them. */
const SEARCHES: { label: string; input: { pattern: string; glob?: string; max_results?: number }; rg: string[] }[] = [
  { label: 'no match', input: { pattern: 'zqxjv_never_here' }, rg: ['zqxjv_never_here'] },
  { label: 'common literal (max_results 2000)', input: { pattern: 'TODO', max_results: 2000 }, rg: ['-m', '2000', 'TODO'] },
  { label: 'regex + glob *.js', input: { pattern: 'class\\s+\\w+Handler\\b', glob: '*.js' }, rg: ['-g', '*.js', 'class\\s+\\w+Handler\\b'] },
  { label: 'no match again', input: { pattern: 'qqzzx_absent' }, rg: ['qqzzx_absent'] },
];

function timeRg(args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync('rg', ['--hidden', '--no-require-git', '-n', '--no-heading', ...args, '.'], {
    cwd,
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.error) throw result.error;
  return performance.now() - started;
}

/**
 * Search as the model sees it, cold: a fresh `keel run` (built app) whose scripted model asks for
 * the SEARCHES one after another; each search's time is from the request that asked for it to the
 * next request (tool call, result sent back). ripgrep runs the same searches in the same trial,
 * right after, so the ratio is taken under the same load. Needs `npm run build`.
 */
export async function benchSearchCold(): Promise<void> {
  heading('Search cold, as the model sees it in keel run, vs ripgrep');
  if (spawnSync('rg', ['--version']).status !== 0) throw new Error('ripgrep (rg) is not on the PATH: the cold search has no baseline');
  const tree = benchTree();
  console.log(`tree: ${tree.files.toLocaleString('en')} files, ${(tree.bytes / 1e6).toFixed(0)} MB; ${TRIALS} trials, each a fresh keel run`);
  const ours: number[][] = SEARCHES.map(() => []);
  const theirs: number[][] = SEARCHES.map(() => []);
  const starts: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const model = await startScriptedAnthropic({
      apiKey: KEY,
      script: [...SEARCHES.map((search) => reply(toolUse('search_text', search.input))), reply(text('Done.'))],
    });
    const home = tempDir('bench-search-cold-home');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home.path, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.baseURL };
      delete env.ANTHROPIC_MODEL;
      delete env.KEEL_MODEL;
      const spawned = Date.now();
      const child = spawn(process.execPath, [bin, 'run', '--workspace', tree.root, '--json', 'Search the tree.'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      if (code !== 0) throw new Error(`keel run exited with ${code}: ${stderr}`);
      if (model.errors.length > 0) throw model.errors[0]!;
      const at = model.requests.map((request) => request.receivedAt);
      if (at.length !== SEARCHES.length + 1) throw new Error(`expected ${SEARCHES.length + 1} requests, got ${at.length}`);
      starts.push(at[0]! - spawned);
      SEARCHES.forEach((search, i) => {
        ours[i]!.push(at[i + 1]! - at[i]!);
        theirs[i]!.push(timeRg(search.rg, tree.root));
      });
    } finally {
      await model.close();
      home.remove();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`keel run start → first request: median ${median(starts).toFixed(0)} ms`);
  SEARCHES.forEach((search, i) => {
    const ratios = ours[i]!.map((ms, t) => (ms / theirs[i]![t]!).toFixed(2)).join(', ');
    console.log(
      `search ${i + 1}, ${search.label}: keel ${median(ours[i]!).toFixed(0)} ms, rg ${median(theirs[i]!).toFixed(0)} ms; ratio per trial ${ratios}× (goal ≤ 2×)`,
    );
  });
}
