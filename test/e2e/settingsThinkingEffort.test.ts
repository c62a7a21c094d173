import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { useScriptedWindow } from './support/scriptedWindow';
import { reply, text, type ScriptedModel } from '../support/scriptedAnthropic';

// Settings edits thinking (automatic or off) and effort (only the levels the endpoint lists for the
// model; none for a model that lists none), each with where its value comes from, saved through
// the contract like every other field: the next request carries what was saved. KEEL_THINKING and
// KEEL_EFFORT win, and Settings says so.

const SONNET: ScriptedModel = {
  id: 'claude-sonnet-5-5',
  max_input_tokens: 200_000,
  max_tokens: 64_000,
  thinking: ['adaptive'],
  effort: ['low', 'medium', 'high'],
};
const PLAIN: ScriptedModel = { id: 'claude-plain-4', max_input_tokens: 100_000, max_tokens: 8_000 };

type Body = { thinking?: unknown; output_config?: { effort?: string } };

async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

async function send(page: Page, message: string, answer: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill(message);
  await composer.press('Enter');
  await page.getByText(answer).waitFor();
}

const effortSelect = (dialog: Locator) => dialog.getByLabel('Effort', { exact: true });
const effortSource = (dialog: Locator) =>
  dialog
    .locator('.field')
    .filter({ has: dialog.page().getByLabel('Effort', { exact: true }) })
    .locator('.source-tag');
const thinkingGroup = (dialog: Locator) => dialog.getByRole('group', { name: /^Thinking/ });

describe('thinking and effort in Settings', () => {
  const keel = useScriptedWindow({
    model: { catalogue: [SONNET, PLAIN] },
    script: [reply(text('First answer.')), reply(text('Second answer.')), reply(text('Third answer.'))],
    env: { KEEL_MODEL: '' },
    settings: { model: SONNET.id },
  });
  const settingsFile = () => JSON.parse(readFileSync(join(keel.keelHome, 'settings.json'), 'utf8')) as Record<string, unknown>;

  test('effort offers the model’s levels; the saved one is in the next request, and the field says it comes from the file', async () => {
    const page = keel.page;
    const dialog = await openSettings(page);
    const select = effortSelect(dialog);
    await expect.poll(() => select.locator('option').allInnerTexts()).toEqual(['Default (Medium)', 'Low', 'Medium', 'High']);
    expect(await select.inputValue()).toBe('');
    expect(await effortSource(dialog).innerText()).toBe('default');
    expect(await thinkingGroup(dialog).getByRole('radio').count()).toBe(2);
    expect(
      await thinkingGroup(dialog)
        .getByRole('radio', { name: /^Automatic/ })
        .isChecked(),
    ).toBe(true);
    expect(await thinkingGroup(dialog).locator('.source-tag').innerText()).toBe('default');

    await select.selectOption('high');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    expect(settingsFile()).toMatchObject({ effort: 'high' });
    expect(await effortSource(dialog).innerText()).toBe('settings file');
    await select.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-effort-light');
    await page.keyboard.press('Escape');

    await send(page, 'Hello.', 'First answer.');
    const body = keel.server.requests.at(-1)!.body as Body;
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body.thinking).toEqual({ type: 'adaptive' });
  }, 60_000);

  test('thinking off is saved, and the next request asks for none', async () => {
    const page = keel.page;
    const dialog = await openSettings(page);
    await thinkingGroup(dialog).getByRole('radio', { name: /^Off/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    expect(settingsFile()).toMatchObject({ thinking: 'off', effort: 'high' });
    expect(await thinkingGroup(dialog).locator('.source-tag').innerText()).toBe('settings file');
    await page.keyboard.press('Escape');

    await send(page, 'Again.', 'Second answer.');
    const body = keel.server.requests.at(-1)!.body as Body;
    expect(body.thinking).toBeUndefined();
    expect(body.output_config).toEqual({ effort: 'high' });
  }, 60_000);

  test('a model that lists no effort shows no levels, and its request carries none', async () => {
    const page = keel.page;
    const dialog = await openSettings(page);
    await dialog.getByLabel('Model', { exact: true }).fill(PLAIN.id);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    const none = dialog.getByTestId('effort-none');
    await none.getByText(`${PLAIN.id} lists no effort levels, so none is sent.`).waitFor();
    expect(await effortSelect(dialog).count()).toBe(0);
    await page.keyboard.press('Escape');

    await send(page, 'Once more.', 'Third answer.');
    const body = keel.server.requests.at(-1)!.body as Body;
    expect(body.output_config).toBeUndefined();
  }, 60_000);
});

describe('KEEL_THINKING and KEEL_EFFORT in Settings', () => {
  const keel = useScriptedWindow({
    model: { catalogue: [SONNET] },
    env: { KEEL_MODEL: SONNET.id, KEEL_THINKING: 'off', KEEL_EFFORT: 'low' },
    settings: { thinking: 'auto', effort: 'high' },
    page: { colorScheme: 'dark' },
  });

  test('win over the file: the fields show their values, say which variable set them, and cannot be changed', async () => {
    const page = keel.page;
    const dialog = await openSettings(page);
    const select = effortSelect(dialog);
    await expect.poll(() => select.inputValue()).toBe('low');
    expect(await select.isDisabled()).toBe(true);
    expect(await effortSource(dialog).innerText()).toBe('environment');
    expect(await dialog.getByText('Set by KEEL_EFFORT: change or unset it to choose here.').count()).toBe(1);
    const thinking = thinkingGroup(dialog);
    expect(await thinking.getByRole('radio', { name: /^Off/ }).isChecked()).toBe(true);
    expect(await thinking.getByRole('radio', { name: /^Automatic/ }).isDisabled()).toBe(true);
    expect(await thinking.locator('.source-tag').innerText()).toBe('environment');
    expect(await thinking.getByText('Set by KEEL_THINKING: change or unset it to choose here.').count()).toBe(1);
    // Nothing to save: what the environment sets is never sent as a change.
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await select.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-effort-env-dark');
  }, 60_000);
});
