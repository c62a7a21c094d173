import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NARROW_WINDOW } from '../../renderer/app/layout/paneLayout';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { board, screenshot } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The window at every size it may have: 1400×900, 1024×700 and the Electron window's minimum
 * size (720×480, main/electron/window.ts), in both themes and both languages. Nothing may be cut
 * off: every key control is inside the viewport, or its own pane scrolls it there, and nothing
 * else covers it. An empty session, then a task waiting for approval with a wide table and a long
 * command in the chat.
 */

const SIZES = [
  { width: 1400, height: 900 },
  { width: 1024, height: 700 },
  { width: 720, height: 480 },
] as const;
const LOOKS = [
  { theme: 'light', language: 'en' },
  { theme: 'dark', language: 'zh-CN' },
  { theme: 'dark', language: 'en' },
  { theme: 'light', language: 'zh-CN' },
] as const;

const WIDE_TABLE = [
  '| Benchmark | Latency | Throughput | Memory | Allocations | Notes |',
  '|---|---|---|---|---|---|',
  '| parse | 12 ms | 8,000/s | 40 MB | 1,200 | `JSON.parse(readFileSync(path, "utf8"))` on the full fixture |',
].join('\n');
const LONG_COMMAND = `python3 -c "print('${'a very long argument '.repeat(8)}')"`;

const home = tempDir('layout-home');
const root = tempDir('layout-ws');
const folder = join(root.path, 'layout-project');
mkdirSync(folder);
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  script: [reply(text(`Here is what I measured.\n\n${WIDE_TABLE}\n\nNext I run it.`), toolUse('bash', { command: LONG_COMMAND }))],
  page: false,
});
let keel: KeelWeb;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

async function setLook(look: (typeof LOOKS)[number]): Promise<void> {
  const socket = await connectKeelSocket(keel.url);
  const result = await socket.request('settings.update', { theme: look.theme, language: look.language });
  socket.close();
  if (!result.ok) throw new Error(result.error.message);
}

/** A page of the test's own (closed after it), loaded at `size`. */
function open(size: (typeof SIZES)[number]): Promise<Page> {
  return scripted.openPage({
    viewport: size,
    ready: async (page) => {
      await board(page).waitFor();
      await page.locator('#composer-input').waitFor();
    },
  });
}

/**
 * Resizes the window as a person dragging its edge does, and waits until the workbench has laid
 * itself out for the new size (narrow or not) and painted.
 */
async function resize(page: Page, size: (typeof SIZES)[number]): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction(
    ({ width, narrowBelow }) => window.innerWidth === width && document.querySelector('.app-body')?.classList.contains('is-narrow') === width < narrowBelow,
    { width: size.width, narrowBelow: NARROW_WINDOW },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** A control the person must be able to reach: the first match of a CSS selector. */
interface Control {
  selector: string;
  /** Every match, not only the first. */
  every?: boolean;
  /** Said when a match lies lower than the top of this element (it runs under it). */
  notUnder?: { selector: string; problem: string };
}

/**
 * What is wrong, in the window as it is: for each control, why it cannot be reached. A control can
 * be reached when, after its own scrolling pane has scrolled it into view, it lies inside the
 * viewport and inside every ancestor that clips, and it is what a click at its centre hits. And
 * the page itself never scrolls sideways: every pane fits the window or scrolls inside itself.
 * Measured in one go inside the page (a round trip per control cost most of this file's time).
 */
async function problems(page: Page, controls: Record<string, string | Control>): Promise<string[]> {
  const wanted = Object.entries(controls).map(([label, control]) => ({ label, ...(typeof control === 'string' ? { selector: control } : control) }));
  return page.evaluate((wanted) => {
    const found: string[] = [];
    const describe = (r: DOMRect) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    const unreachable = (element: Element, label: string): string | null => {
      element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return `${label}: has no size`;
      if (box.left < -0.5 || box.top < -0.5 || box.right > window.innerWidth + 0.5 || box.bottom > window.innerHeight + 0.5) {
        return `${label}: at ${describe(box)}, outside the ${window.innerWidth}×${window.innerHeight} window`;
      }
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5 || box.top < clip.top - 0.5 || box.bottom > clip.bottom + 0.5) {
          return `${label}: at ${describe(box)}, cut off by .${[...parent.classList].join('.')} at ${describe(clip)}`;
        }
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (hit === null || !(element === hit || element.contains(hit))) return `${label}: covered by ${hit?.outerHTML.slice(0, 80) ?? 'nothing'}`;
      return null;
    };
    for (const { label, selector, every, notUnder } of wanted) {
      const matches = every ? [...document.querySelectorAll(selector)] : [document.querySelector(selector)].filter((m) => m !== null);
      if (matches.length === 0 && !every) found.push(`${label}: not there`);
      const limit = notUnder ? document.querySelector(notUnder.selector)?.getBoundingClientRect().top : undefined;
      for (const element of matches) {
        element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
        if (notUnder && limit !== undefined && element.getBoundingClientRect().bottom > limit + 0.5) found.push(notUnder.problem);
        const problem = unreachable(element, label);
        if (problem) found.push(problem);
      }
    }
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    if (overflow > 0) found.push(`the page is ${overflow}px wider than the window`);
    return found;
  }, wanted);
}

/** The controls every workbench state must keep reachable. */
const KEY_CONTROLS: Record<string, string> = {
  'sessions toggle': '.sidebar-toggle',
  'Changes button': '.header-actions .changes-button',
  'Open Folder… button': '.header-actions > .button:not(.changes-button)',
  'settings button': '.header-actions > .icon-button',
  'plan: new step field': '.add-item .add-input',
  'plan: Add button': '.add-item button[type=submit]',
  'message box': '#composer-input',
  'Send button': '.composer button[type=submit]',
  'terminal toggle': '#terminal-title',
  'approval mode menu': '.approval-mode > .status-button',
};

beforeAll(() => {
  keel = scripted.keel;
});

afterEach(() => scripted.closePages());

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the window at 1400, 1024 and 720 px wide', () => {
  test('an empty session: every control reachable, and the message box never over the example tasks', async () => {
    const found: string[] = [];
    // One page per look, resized through the sizes as a person resizes the window.
    for (const look of LOOKS) {
      await setLook(look);
      const page = await open(SIZES[0]);
      for (const size of SIZES) {
        await resize(page, size);
        const where = `${size.width}×${size.height} ${look.theme} ${look.language}`;
        await page.locator('.chat-empty').waitFor();
        // The example tasks scroll above the composer; none lies under it.
        const example = { selector: '.example-task', every: true, notUnder: { selector: '.composer', problem: 'an example task runs under the message box' } };
        found.push(...(await problems(page, { ...KEY_CONTROLS, 'example task': example })).map((problem) => `${where}: ${problem}`));
        await page.locator('.chat-body').evaluate((element) => element.scrollTo(0, 0));
        await screenshot(page, `layout-empty-${size.width}-${look.theme}-${look.language}`);
        if (size.width === 720 && look.theme === 'light' && look.language === 'en') expect(await axeProblems(page)).toEqual([]);
      }
      await page.context().close();
    }
    expect(found).toEqual([]);
  }, 240_000);

  test('in a narrow window the sessions sidebar is a drawer: shown over the panes on demand, closed by Escape', async () => {
    await setLook(LOOKS[0]);
    const page = await open(SIZES[2]);
    const sidebar = page.getByRole('navigation', { name: 'Sessions and folders' });
    expect(await sidebar.count()).toBe(0);
    const toggle = page.getByRole('button', { name: 'Show sessions' });
    await toggle.click();
    await sidebar.waitFor();
    expect(await sidebar.getByRole('button', { name: 'New session', exact: true }).count()).toBe(1);
    expect(await problems(page, { 'New session': 'nav.sidebar .sidebar-new' })).toEqual([]);
    // Over the panes: the chat keeps its width.
    const chatBox = (await page.locator('.chat-pane').boundingBox())!;
    expect(chatBox.width).toBeGreaterThan(340);
    // A scrim dims the panes beside the drawer; a click on it closes the drawer.
    const scrim = page.getByTestId('drawer-scrim');
    expect(await scrim.isVisible()).toBe(true);
    await screenshot(page, 'layout-drawer-720');
    await page.mouse.click(SIZES[2].width - 10, 300);
    await expect.poll(() => sidebar.count()).toBe(0);
    expect(await scrim.count()).toBe(0);
    await toggle.click();
    await sidebar.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebar.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('sidebar-toggle'))).toBe(true);
    // At 1400 the sidebar sits beside the panes, and hiding it gives the panes its width.
    const wide = await open(SIZES[0]);
    const wideSidebar = wide.getByRole('navigation', { name: 'Sessions and folders' });
    await wideSidebar.waitFor();
    const before = (await wide.locator('.work-area').boundingBox())!.width;
    await wide.getByRole('button', { name: 'Hide sessions' }).click();
    await expect.poll(async () => (await wide.locator('.work-area').boundingBox())!.width).toBeGreaterThan(before + 100);
    await wide.getByRole('button', { name: 'Show sessions' }).click();
    await wideSidebar.waitFor();
  }, 60_000);

  test('a task waiting for approval, with a wide table and a long command: every control reachable', async () => {
    await setLook(LOOKS[0]);
    const first = await open(SIZES[0]);
    await first.locator('#composer-input').fill('Measure the parser');
    await first.locator('#composer-input').press('Enter');
    await first.locator('.approval-card').waitFor();
    await first.context().close();

    const found: string[] = [];
    for (const look of LOOKS) {
      await setLook(look);
      const page = await open(SIZES[0]);
      for (const size of SIZES) {
        await resize(page, size);
        const where = `${size.width}×${size.height} ${look.theme} ${look.language}`;
        const card = page.locator('.approval-card');
        await card.waitFor();
        await page.locator('.chat-assistant table').waitFor();
        const controls = {
          ...KEY_CONTROLS,
          'Send button': '.composer button[type=submit]',
          'Stop button': '.composer .button-stop',
          'Allow once': '.approval-card .approval-actions > .button-primary',
          'Allow for this session': '.approval-card .approval-actions > .button:not(.button-primary)',
          'deny reason': '.approval-card .approval-deny input',
          Deny: '.approval-card .approval-deny .button-danger',
        };
        found.push(...(await problems(page, controls)).map((problem) => `${where}: ${problem}`));
        // The deny reason's placeholder is whole in its field.
        const cut = await card.locator('.approval-deny input').evaluate((input: HTMLInputElement) => {
          const probe = document.createElement('span');
          probe.textContent = input.placeholder;
          probe.style.font = getComputedStyle(input).font;
          probe.style.position = 'absolute';
          probe.style.whiteSpace = 'pre';
          document.body.append(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          const style = getComputedStyle(input);
          return needed > input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
        });
        if (cut) found.push(`${where}: the deny reason's placeholder is cut off`);
        // The table's header words stay whole: no header is narrower than its longest word.
        const broken = await page
          .locator('.chat-assistant th')
          .evaluateAll((cells) =>
            cells
              .filter((cell) => cell.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(cell).lineHeight) + 12)
              .map((cell) => cell.textContent),
          );
        if (broken.length > 0) found.push(`${where}: table headers broken over lines: ${broken.join(', ')}`);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, `layout-approval-${size.width}-${look.theme}-${look.language}`);
        if (size.width === 1024 && look.theme === 'dark' && look.language === 'zh-CN') expect(await axeProblems(page)).toEqual([]);
      }
      await page.context().close();
    }
    expect(found).toEqual([]);
  }, 300_000);
});
