import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import '../renderer/terminal/testHookTypes';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { mainPipelineRate, rawPtyRate, webSocketRate, writeLinesFile } from './ptyStages';
import { formatMs, heading, percentile } from './stats';

const PAYLOAD_BYTES = 50_000_000;
const FLOOD_BYTES = 100_000_000;
const LINE_CHARS = 100;
const KEYSTROKES = 50;
const CTRL_C_TRIES = 5;
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
 */
export async function benchTerminalThroughput(): Promise<void> {
  heading(`Terminal: pty → keel web → xterm.js, ~${PAYLOAD_BYTES / 1e6} MB, latency, memory`);
  const home = tempDir('bench-term-home');
  const folder = tempDir('bench-term-ws');
  // The stages without a window: the pty alone, and the pty through main (what cat prints is what xterm.js gets below).
  const scratch = tempDir('bench-term-file');
  const file = writeLinesFile(scratch.path, Math.ceil(PAYLOAD_BYTES / LINE_CHARS), LINE_CHARS);
  await rawPtyRate(file);
  const raw = await rawPtyRate(file);
  const main = await mainPipelineRate(file, home.path, folder.path);
  console.log(`  node-pty alone (cat of ${(raw.bytes / 1e6).toFixed(0)} MB, onData bytes): ${raw.mbps.toFixed(1)} MB/s`);
  console.log(`  pty → Keel's main (batches, screen mirror, flow control; no window): ${main.mbps.toFixed(1)} MB/s`);
  const keel = await startKeelWeb({ workspace: folder.path, keelHome: home.path });
  const socket = await webSocketRate(keel.url, file);
  console.log(`  pty → keel web → WebSocket client in Node (binary frames, acks; no browser): ${socket.mbps.toFixed(1)} MB/s`);
  const browser = await launchChromium();
  try {
    const { page } = await newPage(browser, { viewport: { width: 1400, height: 900 } });
    await page.goto(keel.url);
    await page.locator('section.chat-panel textarea').waitFor();
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    const id = await waitFor(page, () => window.__keelTerminals?.tabs().find((tab) => tab.kind === 'shell')?.id);
    await waitFor(page, (tab) => (window.__keelTerminals!.renderedChars(tab) > 0 ? true : undefined), id);
    await page.locator('#terminal-pane').click();
    await runLine(page, id, `PS1='[bench''-prompt] '`, PROMPT);
    const cols = await page.evaluate((tab) => window.__keelTerminals!.size(tab)!.cols, id);

    // Warm-up: JIT, page cache, the code paths.
    await runLine(page, id, command(2_000_000, 'warm'), 'warm-2');
    await page.evaluate(() => window.__keelTerminals!.parseCeiling(20_000, 100));

    // From the Enter that starts the command (not from the typing of it) to its last line rendered.
    // Where the page's main thread spends the pipeline run (sampled), to attribute the loss.
    const profiler = await page.context().newCDPSession(page);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
    const seen = page.evaluate(([tab]) => window.__keelTerminals!.waitForOutput(tab, 'done-2', 120_000), [id] as const);
    await page.keyboard.type(catCommand(file, 'done'));
    await page.keyboard.press('Enter');
    const began = await page.evaluate((tab) => window.__keelTerminals!.lastInputAt(tab), id);
    const pipelineMs = (await seen) - began;
    const { profile } = await profiler.send('Profiler.stop');
    console.log(`  page main thread during it: ${profileSummary(profile)}`);
    const chars = PAYLOAD_BYTES + Math.ceil(PAYLOAD_BYTES / LINE_CHARS);
    const ceiling = await page.evaluate((lines) => window.__keelTerminals!.parseCeiling(lines, 100), Math.ceil(PAYLOAD_BYTES / LINE_CHARS));
    const pipelineRate = chars / 1e6 / (pipelineMs / 1000);
    const ceilingRate = ceiling.chars / 1e6 / (ceiling.ms / 1000);
    console.log(`  grid ${cols} columns (no wrapping of the 100-character lines)`);
    console.log(`  pty → keel web → xterm.js (same cat, visible tab): ${pipelineRate.toFixed(1)} MB/s (${formatMs(pipelineMs)})`);
    console.log(`  xterm.js alone, same page:      ${ceilingRate.toFixed(1)} MB/s (${formatMs(ceiling.ms)})`);
    console.log(`  ratio ${((pipelineRate / ceilingRate) * 100).toFixed(0)}% (goal ≥ 60%)`);
    const chunked = await page.evaluate((lines) => window.__keelTerminals!.parseCeiling(lines, 100, 256 * 1024), Math.ceil(PAYLOAD_BYTES / LINE_CHARS));
    console.log(
      `  for attribution: xterm.js alone fed the same bytes as 256 KB Uint8Array writes: ${(chunked.chars / 1e6 / (chunked.ms / 1000)).toFixed(1)} MB/s`,
    );
    const drawn = await page.evaluate((lines) => window.__keelTerminals!.parseCeiling(lines, 100, 1024 * 1024, true), Math.ceil(PAYLOAD_BYTES / LINE_CHARS));
    const drawnRate = drawn.chars / 1e6 / (drawn.ms / 1000);
    console.log(
      `  for attribution: xterm.js alone over the pane, drawn as it goes, 1 MB writes: ${drawnRate.toFixed(1)} MB/s (the pipeline is ${((pipelineRate / drawnRate) * 100).toFixed(0)}% of it)`,
    );

    // Keystroke echo: a key pressed at the prompt to its echo rendered.
    const echo: number[] = [];
    for (let i = 0; i < KEYSTROKES; i++) {
      const letter = String.fromCharCode(97 + (i % 26));
      const seen = page.evaluate(([tab, needle]) => window.__keelTerminals!.waitForOutput(tab, needle, 5_000), [id, letter] as const);
      await page.keyboard.press(letter);
      const at = await seen;
      echo.push(at - (await page.evaluate((tab) => window.__keelTerminals!.lastInputAt(tab), id)));
    }
    await page.keyboard.press('Control+U');
    console.log(`  keystroke echo p50 ${formatMs(percentile(echo, 50))}, p95 ${formatMs(percentile(echo, 95))} over ${KEYSTROKES} (goal p95 < 50 ms)`);

    // Ctrl-C during a flood, to the prompt rendered.
    const ctrlC: number[] = [];
    for (let i = 0; i < CTRL_C_TRIES; i++) {
      const before = await page.evaluate((tab) => window.__keelTerminals!.renderedChars(tab), id);
      await page.keyboard.type('yes');
      await page.keyboard.press('Enter');
      await waitFor(page, ([tab, from]) => (window.__keelTerminals!.renderedChars(tab) > from + 300_000 ? true : undefined), [id, before] as const);
      const prompt = page.evaluate(([tab, needle]) => window.__keelTerminals!.waitForOutput(tab, needle, 10_000), [id, PROMPT] as const);
      await page.keyboard.press('Control+C');
      const at = await prompt;
      ctrlC.push(at - (await page.evaluate((tab) => window.__keelTerminals!.lastInputAt(tab), id)));
    }
    console.log(
      `  Ctrl-C to prompt during a yes flood p50 ${formatMs(percentile(ctrlC, 50))}, p95 ${formatMs(percentile(ctrlC, 95))} over ${CTRL_C_TRIES} (goal p95 < 300 ms)`,
    );

    // Memory: the JS heap after a 100 MB flood against before it (the scrollback is bounded).
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
    };
    const heapBefore = await heap();
    await runLine(page, id, command(FLOOD_BYTES, 'flood'), 'flood-2', 120_000);
    const heapAfter = await heap();
    console.log(`  JS heap before a ${FLOOD_BYTES / 1e6} MB flood ${heapBefore.toFixed(1)} MB, after ${heapAfter.toFixed(1)} MB (goal: bounded)`);
  } finally {
    await browser.close();
    await keel.stop();
    scratch.remove();
    home.remove();
    folder.remove();
  }
}

/** Sampled time of a CPU profile: idle, the browser's own work ("(program)": style, layout, paint, messages), GC, and the top script functions. */
function profileSummary(profile: { nodes: Array<{ id: number; callFrame: { functionName: string } }>; samples?: number[]; timeDeltas?: number[] }): string {
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
async function runLine(page: Page, id: string, line: string, needle: string, timeoutMs = 30_000): Promise<number> {
  const seen = page.evaluate(([tab, text, ms]) => window.__keelTerminals!.waitForOutput(tab, text, ms), [id, needle, timeoutMs] as const);
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  return seen;
}

async function waitFor<T, A>(page: Page, read: (arg: A) => T | undefined, arg?: A, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const evaluate = page.evaluate.bind(page) as (fn: (arg: A) => T | undefined, arg: A | undefined) => Promise<T | undefined>;
    const value = await evaluate(read, arg);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchTerminalThroughput();
