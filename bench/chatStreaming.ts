import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { sessionsFolder } from '../main/session/workspaceSession';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { startScriptedAnthropic, reply } from '../test/support/scriptedAnthropic';
import { sized } from './quick';
import { tapPageSocket, type SocketTap } from './socketTap';

const LONG_SESSION_MESSAGES = sized(1_000, 200);
const OPEN_RUNS = sized(5, 2);
const GOAL_OPEN_MS = 1_000;
const GOAL_NODES = 2_000;
const STREAM_TOKENS = sized(10_000, 1_000);
/** Tokens in each of the three compared stretches (first, middle, last). */
const STRETCH = STREAM_TOKENS / 10;
/** Characters per streamed text_delta: one "token". */
const TOKEN_CHARS = 4;

/**
 * Writes a session transcript with `messages` model messages (user and assistant, with a tool call
 * and a fenced code block now and then), as `keel web` would have saved it, and returns the last
 * user message's text. The folder's newest session is the one `keel web` opens.
 */
export function writeLongSession(keelHome: string, folder: string, messages = LONG_SESSION_MESSAGES): { lastText: string; sessionId: string } {
  const workspace = realpathSync(folder);
  const dir = sessionsFolder(keelHome, workspace);
  mkdirSync(dir, { recursive: true });
  const sessionId = '20260101T000000Z-benc01';
  const at = '2026-01-01T00:00:00.000Z';
  const lines: object[] = [{ type: 'session', format: 1, id: sessionId, workspace, createdAt: at }];
  let count = 0;
  let task = 0;
  let lastText = '';
  while (count < messages) {
    task++;
    const taskId = `task-${task}`;
    lastText = `Question number ${task}: what does step ${task} of the build do?`;
    lines.push({ type: 'task', event: 'start', taskId, text: lastText, at });
    lines.push({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: lastText }] }, at });
    count++;
    if (task % 4 === 0 && count + 3 <= messages) {
      const id = `toolu_bench_${task}`;
      lines.push({
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id, name: 'bash', input: { command: `ls step-${task}` } },
          ],
        },
        at,
      });
      lines.push({
        type: 'message',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `step-${task}.txt\n[exit code: 0]` }] },
        at,
      });
      count += 2;
    }
    const code = task % 3 === 0 ? `\n\n\`\`\`ts\nexport function step${task}(input: string): number {\n  return input.length * ${task};\n}\n\`\`\`\n` : '';
    const answer = `Step **${task}** reads the input, checks it and writes \`out-${task}.txt\`.${code}\n\n- it is idempotent\n- it takes about ${task % 7} s`;
    lines.push({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: answer }] }, at });
    count++;
    lines.push({ type: 'task', event: 'end', taskId, outcome: 'done', at });
  }
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, { mode: 0o600 });
  return { lastText, sessionId };
}

/** A long markdown answer of `tokens` pieces of TOKEN_CHARS characters: paragraphs, lists and code. */
function longAnswer(tokens: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 1; length < tokens * TOKEN_CHARS; i++) {
    const part =
      i % 5 === 0
        ? `\`\`\`js\nfunction part${i}(value) {\n  return value * ${i}; // part ${i}\n}\n\`\`\`\n\n`
        : i % 3 === 0
          ? `- item ${i} with \`code\` and **bold** text\n- another item in list ${i}\n\n`
          : `Paragraph ${i} explains one more detail of the change, with *emphasis* and a [link](https://example.com/${i}) in it. `.repeat(2) + '\n\n';
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, tokens * TOKEN_CHARS);
}

/**
 * The chat in `keel web` + Chromium:
 * (1) opening a 1,000-message session: time from navigation until the last message is rendered,
 *     and the DOM node count (goal: under 1 s and under 2,000 nodes);
 * (2) main-thread time per streamed token over a 10,000-token answer from the scripted model
 *     (Chrome's TaskDuration metric sampled as tokens arrive), first 1,000 tokens against the last
 *     1,000 (goal: flat). Prints figures only. Needs `npm run build`.
 */
export async function benchChatStreaming(): Promise<void> {
  const browser = await launchChromium();
  try {
    await benchOpenLongSession(browser);
    await benchStreaming(browser);
  } finally {
    await browser.close();
  }
}

async function benchOpenLongSession(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<void> {
  const home = tempDir('bench-chat-home');
  const root = tempDir('bench-chat-ws');
  const folder = join(root.path, 'long-session');
  mkdirSync(folder);
  const { lastText } = writeLongSession(home.path, folder);
  const keel = await startKeelWeb({ keelHome: home.path, workspace: folder });
  try {
    const { page } = await newPage(browser);
    const runs: { total: number; afterHistory: number; nodes: number; chatNodes: number; rows: number }[] = [];
    await markHistoryArrival(page);
    for (let run = 0; run < OPEN_RUNS + 1; run++) {
      await page.goto(keel.url);
      await page.waitForFunction((text) => [...document.querySelectorAll('.transcript-row')].some((row) => row.textContent?.includes(text)), lastText, {
        timeout: 30_000,
        polling: 'raf',
      });
      const figures = await page.evaluate(() => {
        const now = performance.now();
        const marks = (window as unknown as { __keelHistoryAt?: number }).__keelHistoryAt;
        if (marks === undefined) throw new Error('the socket tap never saw the chat.load answer arrive');
        const panel = document.querySelector('.chat-panel');
        return {
          total: now,
          afterHistory: now - marks,
          nodes: document.getElementsByTagName('*').length,
          chatNodes: panel ? panel.getElementsByTagName('*').length : 0,
          rows: document.querySelectorAll('.transcript-row').length,
        };
      });
      if (run > 0) runs.push(figures); // the first load warms the caches
    }
    const median = (key: keyof (typeof runs)[number]) => [...runs.map((r) => r[key])].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    console.log(`open a ${LONG_SESSION_MESSAGES}-message session in keel web (median of ${OPEN_RUNS} loads):`);
    console.log(`  navigation → last message rendered: ${ms(median('total'))} (goal: < ${GOAL_OPEN_MS} ms)`);
    console.log(`  chat.load answer → last message rendered: ${ms(median('afterHistory'))}`);
    console.log(`  DOM nodes: ${median('nodes')} in the page, ${median('chatNodes')} in the chat, ${median('rows')} rows rendered (goal: < ${GOAL_NODES})`);
    await page.context().close();
  } finally {
    await keel.stop();
    home.remove();
    root.remove();
  }
}

/**
 * Notes when the answer to the window's history request (chat.load) reaches the page: the answer carrying the id of a
 * chat.load request the page sent (any size; with --quick the history is small). The id is read
 * from the frame's head, so the tap adds no parse of the large answer to the page's own work.
 */
async function markHistoryArrival(page: Page): Promise<void> {
  await tapPageSocket(page);
  await page.addInitScript(() => {
    const tap = (window as unknown as { __keelSocketTap: SocketTap }).__keelSocketTap;
    tap.onText = (data) => {
      const id = /^\{"type":"response","id":(\d+),/.exec(data.slice(0, 64))?.[1];
      if (id === undefined) return;
      const asked = tap.sends.some((frame) => frame.data.includes('"channel":"chat.load"') && frame.data.includes(`"id":${id},`));
      if (asked) (window as unknown as { __keelHistoryAt?: number }).__keelHistoryAt = performance.now();
    };
  });
}

async function benchStreaming(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<void> {
  const home = tempDir('bench-stream-home');
  const root = tempDir('bench-stream-ws');
  const folder = join(root.path, 'stream');
  mkdirSync(folder);
  const answer = longAnswer(STREAM_TOKENS);
  const server = await startScriptedAnthropic({ apiKey: 'k', textChunkChars: TOKEN_CHARS, script: [{ ...reply(answer), chunkDelayMs: 2 }] });
  const keel = await startKeelWeb({ keelHome: home.path, workspace: folder, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' } });
  try {
    const { page } = await newPage(browser);
    // Counts the streamed text deltas as they reach the page.
    await tapPageSocket(page);
    await page.addInitScript(() => {
      const counter = { tokens: 0 };
      (window as unknown as { __keelTokens: typeof counter }).__keelTokens = counter;
      const tap = (window as unknown as { __keelSocketTap: { onText?: (data: string) => void } }).__keelSocketTap;
      tap.onText = (data) => {
        if (data.includes('"type":"text","delta"')) counter.tokens++;
      };
    });
    await page.goto(keel.url);
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const sample = async () => {
      const [{ metrics }, tokens] = await Promise.all([
        cdp.send('Performance.getMetrics') as Promise<{ metrics: { name: string; value: number }[] }>,
        page.evaluate(() => (window as unknown as { __keelTokens: { tokens: number } }).__keelTokens.tokens),
      ]);
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      return {
        at: Date.now(),
        tokens,
        task: metric('TaskDuration') * 1000,
        script: metric('ScriptDuration') * 1000,
        layout: (metric('LayoutDuration') + metric('RecalcStyleDuration')) * 1000,
      };
    };
    await composer.fill('Explain the change in detail.');
    const samples = [await sample()];
    const started = Date.now();
    await composer.press('Enter');
    while (samples.at(-1)!.tokens < STREAM_TOKENS && Date.now() - started < 180_000) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      samples.push(await sample());
    }
    await page.locator('[data-outcome="done"]').waitFor({ timeout: 30_000 });
    const seconds = (Date.now() - started) / 1000;

    /** Main-thread time per token between the samples nearest to `from` and `to` tokens. */
    const segment = (from: number, to: number) => {
      const a = samples.reduce((best, s) => (Math.abs(s.tokens - from) < Math.abs(best.tokens - from) ? s : best));
      const b = samples.reduce((best, s) => (Math.abs(s.tokens - to) < Math.abs(best.tokens - to) ? s : best));
      const n = Math.max(1, b.tokens - a.tokens);
      return {
        task: (b.task - a.task) / n,
        script: (b.script - a.script) / n,
        layout: (b.layout - a.layout) / n,
        tokens: n,
        rate: (n * 1000) / Math.max(1, b.at - a.at),
      };
    };
    const counted = samples.at(-1)!.tokens;
    if (counted < STREAM_TOKENS) throw new Error(`the page counted ${counted} of ${STREAM_TOKENS} streamed tokens on its socket in ${seconds.toFixed(0)} s`);
    const first = segment(0, STRETCH);
    const middle = segment(STREAM_TOKENS / 2 - STRETCH / 2, STREAM_TOKENS / 2 + STRETCH / 2);
    const last = segment(STREAM_TOKENS - STRETCH, STREAM_TOKENS);
    const line = (label: string, s: ReturnType<typeof segment>) =>
      `  ${label}: ${ms(s.task, 3)} per token: script ${ms(s.script, 3)}, style + layout ${ms(s.layout, 3)}, the rest (paint, GC, frames) ${ms(s.task - s.script - s.layout, 3)}; ${s.tokens} tokens at ${s.rate.toFixed(0)}/s`;
    console.log(`stream a ${STREAM_TOKENS}-token answer (${answer.length} characters) into the chat, ${seconds.toFixed(1)} s; main-thread time of the page:`);
    const count = (n: number) => n.toLocaleString('en');
    console.log(line(`first ${count(STRETCH)} tokens`, first));
    console.log(line(`tokens ${count(STREAM_TOKENS / 2 - STRETCH / 2)}–${count(STREAM_TOKENS / 2 + STRETCH / 2)}`, middle));
    console.log(line(`last ${count(STRETCH)} tokens`, last));
    console.log(
      `  last / first: ${(last.task / first.task).toFixed(2)}× all main-thread time, ${((last.script + last.layout) / (first.script + first.layout)).toFixed(2)}× script + style + layout (goal: flat, about 1×)`,
    );
    const nodes = await page.evaluate(() => document.querySelector('.chat-panel')?.getElementsByTagName('*').length ?? 0);
    console.log(`  DOM nodes in the chat after the answer: ${nodes}`);
    await page.context().close();
  } finally {
    await keel.stop();
    await server.close();
    home.remove();
    root.remove();
  }
}

const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchChatStreaming();
}
