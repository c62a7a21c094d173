import { pathToFileURL } from 'node:url';
import '../renderer/terminal/testHookTypes';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { openShellTab } from '../test/e2e/support/until';
import { openCdpPage, type CdpPage } from './cdpPage';
import { mainPipelineRate, rawPtyRate, webSocketRate, writeLinesFile } from './ptyStages';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const PAYLOAD_BYTES = sized(50_000_000, 5_000_000);
const FLOOD_BYTES = sized(100_000_000, 10_000_000);
const LINE_CHARS = 100;
const KEYSTROKES = sized(50, 10);
const CTRL_C_TRIES = sized(10, 3);
const RUNS = sized(5, 2);
/** Characters of `yes` on screen before each Ctrl-C, and of 1-character lines parsed for attribution. */
const YES_CHARS = sized(1_000_000, 200_000);
const PROMPT = '[bench-prompt] ';

const command = (bytes: number, marker: string) => `head -c ${bytes} /dev/zero | tr '\\0' a | fold -w ${LINE_CHARS}; echo ${marker}-$((1+1))`;
/** `cat` of a file, as the pty's own rate is measured: `fold` to a tty writes line by line, 500,000 small writes. */
const catCommand = (file: string, marker: string) => `cat ${file}; echo ${marker}-$((1+1))`;

/**
 * The integrated terminal through `keel web` in Chromium: throughput from the pty to xterm.js for
 * ~50 MB (500,000 lines of 100 characters) beside xterm.js parsing the same characters in the same
 * page with no pty or transport (a hidden instance, one write, timed to its callback); keystroke
 * echo latency; Ctrl-C to the prompt during a `yes` flood; the page's JS heap after a 100 MB flood
 * against before it. Times are taken in the page (performance.now() at the keystroke and at the
 * write callback that rendered the answer). MB is 10^6 characters. Prints figures only.
 *
 * The page is driven over the bare DevTools protocol (cdpPage.ts): Playwright's instrumentation
 * copies every WebSocket frame, which no person's window pays for. One run in a Playwright page
 * is printed as well, to show what that observer costs.
 */
export async function benchTerminalThroughput(): Promise<void> {
  heading(`Terminal: pty → keel web → xterm.js, ~${PAYLOAD_BYTES / 1e6} MB, latency, memory`);
  const home = tempDir('bench-term-home');
  const folder = tempDir('bench-term-ws');
  // The shells' own HOME, with no rc files: the bench measures Keel's pipeline, not the machine's
  // ~/.bashrc. A pyenv there waits 60 s for a lock that a shell killed at the wrong moment left
  // behind, which made this bench time out in CI (0.1 MB/s: the minute was the shell's start).
  const shellHome = tempDir('bench-term-user');
  // The stages without a window: the pty alone, and the pty through main (what cat prints is what xterm.js gets below).
  const scratch = tempDir('bench-term-file');
  const file = writeLinesFile(scratch.path, Math.ceil(PAYLOAD_BYTES / LINE_CHARS), LINE_CHARS);
  const lines = Math.ceil(PAYLOAD_BYTES / LINE_CHARS);
  const chars = PAYLOAD_BYTES + lines;
  await rawPtyRate(file);
  const raw = await rawPtyRate(file);
  const main = await withHome(shellHome.path, () => mainPipelineRate(file, home.path, folder.path));
  console.log(`  node-pty alone (cat of ${(raw.bytes / 1e6).toFixed(0)} MB, onData bytes): ${raw.mbps.toFixed(1)} MB/s`);
  console.log(`  pty → Keel's main (batches, screen mirror, flow control; no window): ${main.mbps.toFixed(1)} MB/s`);
  const keel = await startKeelWeb({ workspace: folder.path, keelHome: home.path, env: { HOME: shellHome.path } });
  const socket = await webSocketRate(keel.url, file);
  console.log(`  pty → keel web → WebSocket client in Node (binary frames, acks; no browser): ${socket.mbps.toFixed(1)} MB/s`);
  let page: CdpPage | undefined;
  try {
    page = await openCdpPage(keel.url, { width: 1400, height: 900 });
    const id = await openShell(page);
    const cols = await page.call((tab) => window.__keelTerminals!.size(tab)!.cols, id);
    console.log(`  grid ${cols} columns (no wrapping of the 100-character lines); page driven over the bare DevTools protocol`);

    // Warm-up: JIT, page cache, the code paths.
    await runLine(page, id, command(sized(2_000_000, 500_000), 'warm'), 'warm-2');
    await page.call(() => window.__keelTerminals!.parseCeiling(20_000, 100), null);

    // From the Enter that starts the command (not from the typing of it) to its last line
    // rendered, against xterm.js alone in the same page, alternately: the median of each.
    const pipeline: number[] = [];
    const alone: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      pipeline.push(chars / 1e3 / (await timeCat(page, id, file)));
      const ceiling = await page.call((n) => window.__keelTerminals!.parseCeiling(n, 100), lines);
      alone.push(ceiling.chars / 1e3 / ceiling.ms);
    }
    const pipelineRate = percentile(pipeline, 50);
    const aloneRate = percentile(alone, 50);
    console.log(
      `  pty → keel web → xterm.js (same cat, visible tab): ${mbps(pipelineRate)} median of ${RUNS} (${pipeline.map((rate) => rate.toFixed(1)).join(', ')})`,
    );
    console.log(`  xterm.js alone, same page:      ${mbps(aloneRate)} median of ${RUNS} (${alone.map((rate) => rate.toFixed(1)).join(', ')})`);
    console.log(`  ratio ${((pipelineRate / aloneRate) * 100).toFixed(0)}% (goal ≥ 60%)`);

    // Attribution, in runs of their own (a profiler slows what it watches).
    await page.send('Profiler.enable');
    await page.send('Profiler.start');
    const profiledMs = await timeCat(page, id, file);
    const { profile } = await page.send<{ profile: Profile }>('Profiler.stop');
    console.log(`  for attribution: a profiled run (${mbps(chars / 1e3 / profiledMs)}), the page's main thread: ${profileSummary(profile)}`);
    const chunked = await page.call((n) => window.__keelTerminals!.parseCeiling(n, 100, 256 * 1024), lines);
    console.log(`  for attribution: xterm.js alone fed the same bytes as 256 KB Uint8Array writes: ${mbps(chunked.chars / 1e3 / chunked.ms)}`);
    const drawn = await page.call((n) => window.__keelTerminals!.parseCeiling(n, 100, 1024 * 1024, true), lines);
    const drawnRate = drawn.chars / 1e3 / drawn.ms;
    console.log(
      `  for attribution: xterm.js alone over the pane, drawn as it goes, 1 MB writes: ${mbps(drawnRate)} (the pipeline is ${((pipelineRate / drawnRate) * 100).toFixed(0)}% of it)`,
    );
    const short = await page.call((n) => window.__keelTerminals!.parseCeiling(n, 1), YES_CHARS);
    console.log(`  for attribution: xterm.js alone on 1-character lines (a yes): ${mbps(short.chars / 1e3 / short.ms)}`);

    // Keystroke echo: a key pressed at the prompt to its echo rendered.
    const echo: number[] = [];
    for (let i = 0; i < KEYSTROKES; i++) {
      const letter = String.fromCharCode(97 + (i % 26));
      const seen = page.call(([tab, needle]) => window.__keelTerminals!.waitForOutput(tab, needle, 5_000), [id, letter] as const);
      await page.press(letter);
      const at = await seen;
      echo.push(at - (await page.call((tab) => window.__keelTerminals!.lastInputAt(tab), id)));
    }
    await page.press('Control+U');
    console.log(`  keystroke echo p50 ${formatMs(percentile(echo, 50))}, p95 ${formatMs(percentile(echo, 95))} over ${KEYSTROKES} (goal p95 < 50 ms)`);

    // Ctrl-C during a flood, to the prompt rendered.
    const ctrlC: number[] = [];
    for (let i = 0; i < CTRL_C_TRIES; i++) {
      const before = await page.call((tab) => window.__keelTerminals!.renderedChars(tab), id);
      await page.insertText('yes');
      await page.press('Enter');
      await waitFor(
        page,
        ([tab, from]) => (window.__keelTerminals!.renderedChars(tab) > from ? true : undefined),
        [id, before + YES_CHARS] as const,
        "the yes flood's first characters on screen",
      );
      const prompt = page.call(([tab, needle]) => window.__keelTerminals!.waitForOutput(tab, needle, 10_000), [id, PROMPT] as const);
      await page.press('Control+C');
      const at = await prompt;
      ctrlC.push(at - (await page.call((tab) => window.__keelTerminals!.lastInputAt(tab), id)));
    }
    console.log(
      `  Ctrl-C to prompt during a yes flood p50 ${formatMs(percentile(ctrlC, 50))}, p95 ${formatMs(percentile(ctrlC, 95))} over ${CTRL_C_TRIES} (goal p95 < 300 ms)`,
    );

    // Memory: the JS heap after a 100 MB flood against before it (the scrollback is bounded).
    const heap = async () => {
      await page!.send('HeapProfiler.collectGarbage');
      return (await page!.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize / 1e6;
    };
    const heapBefore = await heap();
    await runLine(page, id, command(FLOOD_BYTES, 'flood'), 'flood-2', 120_000);
    const heapAfter = await heap();
    console.log(`  JS heap before a ${FLOOD_BYTES / 1e6} MB flood ${heapBefore.toFixed(1)} MB, after ${heapAfter.toFixed(1)} MB (goal: bounded)`);
    await page.close();
    page = undefined;

    const observed = await playwrightPipelineRate(keel.url, file, chars);
    console.log(`  the same cat in a page Playwright drives (its Network domain copies every frame): ${mbps(observed)}`);
  } finally {
    await page?.close();
    await keel.stop();
    scratch.remove();
    shellHome.remove();
    home.remove();
    folder.remove();
  }
}

const mbps = (rate: number) => `${rate.toFixed(1)} MB/s`;

/** Runs `run` with HOME set to `home` (the shells a core in this process starts inherit it), then puts it back. */
async function withHome<T>(home: string, run: () => Promise<T>): Promise<T> {
  const before = process.env.HOME;
  process.env.HOME = home;
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.HOME;
    else process.env.HOME = before;
  }
}

/** Opens the shell tab, focuses it and sets a prompt to look for; resolves with its id. */
async function openShell(page: CdpPage): Promise<string> {
  await waitFor(
    page,
    () => (document.querySelector('section.chat-panel textarea') && window.__keelTerminals ? true : undefined),
    null,
    'the window showing its composer and terminal hooks',
  );
  await page.call(() => [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Terminal')?.click(), null);
  const id = await waitFor(page, () => window.__keelTerminals?.tabs().find((tab) => tab.kind === 'shell')?.id, null, 'a shell tab opening');
  await waitFor(page, (tab) => (window.__keelTerminals!.renderedChars(tab) > 0 ? true : undefined), id, "the shell's first prompt on screen");
  await page.call(() => document.querySelector<HTMLTextAreaElement>('#terminal-pane .xterm-helper-textarea')?.focus(), null);
  await runLine(page, id, `PS1='[bench''-prompt] '`, PROMPT);
  return id;
}

/** Milliseconds from the Enter of `cat file` to its marker rendered. */
async function timeCat(page: CdpPage, id: string, file: string): Promise<number> {
  const seen = await runLine(page, id, catCommand(file, 'done'), 'done-2', 120_000);
  // Nothing is typed after the Enter, so the last input is still the Enter.
  return seen - (await page.call((tab) => window.__keelTerminals!.lastInputAt(tab), id));
}

/** One pipeline run in a page Playwright drives, for comparison (MB/s). */
async function playwrightPipelineRate(url: string, file: string, chars: number): Promise<number> {
  const browser = await launchChromium();
  try {
    const { page } = await newPage(browser, { viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.locator('section.chat-panel textarea').waitFor();
    const id = await openShellTab(page);
    const seen = page.evaluate((tab) => window.__keelTerminals!.waitForOutput(tab, 'done-2', 120_000), id);
    await page.keyboard.type(catCommand(file, 'done'));
    await page.keyboard.press('Enter');
    const began = await page.evaluate((tab) => window.__keelTerminals!.lastInputAt(tab), id);
    return chars / 1e3 / ((await seen) - began);
  } finally {
    await browser.close();
  }
}

type Profile = { nodes: Array<{ id: number; callFrame: { functionName: string } }>; samples?: number[]; timeDeltas?: number[] };

/** Sampled time of a CPU profile: idle, the browser's own work ("(program)": style, layout, paint, messages), GC, and the top script functions. */
function profileSummary(profile: Profile): string {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName || '(anonymous)']));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const name = names.get(id) ?? '?';
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const take = (name: string) => {
    const ms = self.get(name) ?? 0;
    self.delete(name);
    return ms;
  };
  const idle = take('(idle)');
  const program = take('(program)');
  const gc = take('(garbage collector)');
  take('(root)');
  const script = [...self.values()].reduce((sum, ms) => sum + ms, 0);
  const top = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, ms]) => `${name} ${formatMs(ms)}`)
    .join(', ');
  return `idle ${formatMs(idle)}, browser (program) ${formatMs(program)}, GC ${formatMs(gc)}, script ${formatMs(script)} (top: ${top})`;
}

/** Types a line at the prompt; resolves with performance.now() in the page when `needle` was rendered. */
async function runLine(page: CdpPage, id: string, line: string, needle: string, timeoutMs = 30_000): Promise<number> {
  const seen = page.call(([tab, text, ms]) => window.__keelTerminals!.waitForOutput(tab, text, ms), [id, needle, timeoutMs] as const);
  await page.insertText(line);
  await page.press('Enter');
  return seen;
}

async function waitFor<T, A>(page: CdpPage, read: (arg: A) => T | undefined, arg: A, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.call(read, arg);
    if (value !== undefined && value !== null) return value;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchTerminalThroughput();
