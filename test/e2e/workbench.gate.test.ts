import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, textOf, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { board, screenshot, stepTexts } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The window while the agent works, with the scripted model behind `keel web`: the status bar
 * follows the agent, and when the completion gate stops a task with its plan unfinished the board
 * says so and offers "Continue" and "Mark the plan done". The key comes from the environment here.
 */

const ENV_KEY = 'sk-ant-env-key-5b7d9f1a3c8e20';

const home = tempDir('wbg-home');
const root = tempDir('wbg-ws');
const folder = join(root.path, 'gate-project');
mkdirSync(folder);

const openPlan = [
  { content: 'Read the existing code', status: 'completed' },
  { content: 'Write hello.py', status: 'in_progress', activeForm: 'Writing hello.py' },
  { content: 'Run it and check the output', status: 'pending' },
];
const donePlan = openPlan.map(({ content }) => ({ content, status: 'completed' }));

const scripted = useScriptedWindow({ keelHome: home.path, workspace: folder, apiKey: ENV_KEY, page: false });

let keel: KeelWeb;
let model: ScriptedAnthropic;

/** A page of the test's own, closed after it. */
function openWorkbench(): Promise<Page> {
  return scripted.openPage({ ready: (page) => board(page).waitFor() });
}

async function sendTask(textToSend: string): Promise<void> {
  const socket = await connectKeelSocket(keel.url);
  const sent = await socket.request('task.send', { text: textToSend });
  socket.close();
  if (!sent.ok) throw new Error(sent.error.message);
}

/** The model plans, then ends its turn three times with the plan open: the gate stops the task. */
const stopsUnfinished = (items = openPlan) => [
  reply(text('Here is the plan.'), toolUse('todo', { items })),
  reply(text('Done, I believe.')),
  reply(text('Really done.')),
  reply(text('Nothing more to do.')),
];

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    return (await axe.run(document)).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

beforeAll(() => {
  ({ keel, server: model } = scripted);
});

afterEach(() => scripted.closePages());

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the workbench while the agent works (keel web + scripted model)', () => {
  test('a key from the environment is shown masked and read-only, never whole', async () => {
    const page = await openWorkbench();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('from the environment (ANTHROPIC_API_KEY)');
    expect(await dialog.getByLabel('API key').getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByLabel('Base URL').getAttribute('readonly')).not.toBeNull();
    expect(await dialog.innerText()).toContain('ANTHROPIC_API_KEY is set in the environment');
    expect(await page.content()).not.toContain(ENV_KEY);
    await screenshot(page, 'workbench-settings-environment');
  });

  test('stopped with an unfinished plan: the board says so; Continue sends the agent back to it', async () => {
    const page = await openWorkbench();
    model.push(...stopsUnfinished());
    await sendTask('Write hello.py and run it');

    const banner = page.getByRole('region', { name: 'Stopped with an unfinished plan' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('2 of 3 steps are not done');
    const bar = page.getByRole('contentinfo');
    await expect.poll(() => bar.innerText()).toContain('Stopped, plan unfinished');
    expect(await bar.innerText()).toMatch(/[1-9][\d.]*K? in · [1-9]\d* out/);
    expect(await bar.innerText()).toMatch(/≈ \$\d/);
    const sidebar = page.getByRole('navigation', { name: 'Sessions and folders' });
    // The list shows the session's title as soon as the task starts, its state once the list is read again.
    await expect.poll(() => sidebar.innerText()).toContain('Write hello.py and run it');
    await expect.poll(() => sidebar.innerText()).toContain('Plan unfinished');
    await expect.poll(() => page.locator('.workspace-session').innerText()).toContain('Write hello.py and run it');
    await page.mouse.move(1000, 700);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-stopped-unfinished');

    // A reload (a new window) still says it.
    await page.reload();
    await banner.waitFor();

    // Continue: a short message starts a task; the model finishes the plan.
    model.push(reply(toolUse('todo', { items: donePlan })), reply(text('All three steps are done.')));
    await banner.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => bar.innerText()).toContain('Done');
    expect(textOf(model.requests.at(-2)!.body.messages.at(-1))).toContain('Continue with the unfinished steps of the plan.');
    await expect.poll(() => page.getByRole('region', { name: 'Stopped with an unfinished plan' }).count()).toBe(0);
    expect(await board(page).innerText()).toContain('3 of 3 completed');
  }, 60_000);

  test('Mark the plan done: every step completed by the person, the stop message gone', async () => {
    const page = await openWorkbench();
    model.push(
      ...stopsUnfinished([
        { content: 'Add a README', status: 'in_progress' },
        { content: 'Link it from the docs', status: 'pending' },
      ]),
    );
    await sendTask('Write a README');
    const banner = page.getByRole('region', { name: 'Stopped with an unfinished plan' });
    await banner.waitFor();
    expect(await stepTexts(page)).toEqual(['Add a README', 'Link it from the docs']);

    await banner.getByRole('button', { name: 'Mark the plan done' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    expect(await board(page).innerText()).toContain('2 of 2 completed');
    expect(await board(page).locator('.board-source').innerText()).toMatch(/^Last change: you/);
    const socket = await connectKeelSocket(keel.url);
    const plan = await socket.request('plan.get', {});
    socket.close();
    expect(plan.ok && plan.value.items.map((item) => item.status)).toEqual(['completed', 'completed']);
  }, 60_000);

  test('"Allow for this session" rules are listed in the settings and can be revoked', async () => {
    const page = await openWorkbench();
    model.push(reply(toolUse('bash', { command: 'echo allowed' })), reply(text('It printed "allowed".')));
    await sendTask('Print a word');
    const socket = await connectKeelSocket(keel.url);
    try {
      let pending: string | undefined;
      await expect
        .poll(async () => {
          const status = await socket.request('agent.status', {});
          pending = status.ok ? status.value.pendingApprovals[0]?.id : undefined;
          return pending !== undefined;
        })
        .toBe(true);
      await expect.poll(() => page.getByRole('contentinfo').innerText()).toContain('Waiting for you');
      expect((await socket.request('approval.respond', { id: pending!, answer: { decision: 'allow_session' } })).ok).toBe(true);
      await expect.poll(() => page.getByRole('contentinfo').innerText()).toContain('Done');

      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.getByText('Commands: echo').waitFor();
      await dialog.getByRole('button', { name: 'Revoke “Commands: echo”' }).click();
      await dialog.getByText('Nothing yet.', { exact: false }).waitFor();
      const rules = await socket.request('approval.rules', {});
      expect(rules.ok && rules.value.rules).toEqual([]);
    } finally {
      socket.close();
    }
  }, 60_000);
});
