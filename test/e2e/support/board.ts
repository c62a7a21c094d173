import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './keelWeb';

/* Helpers for driving the plan board as a person would. */

export const board = (page: Page): Locator => page.locator('section.plan-board[data-plan-version]');

/** The stored plan version the board shows. */
export async function boardVersion(page: Page): Promise<number> {
  return Number(await board(page).getAttribute('data-plan-version'));
}

/** Waits until the board renders a stored version newer than `than`. */
export async function waitForNewVersion(page: Page, than: number, timeout = 5_000): Promise<number> {
  await page.waitForFunction((previous) => Number(document.querySelector('[data-plan-version]')?.getAttribute('data-plan-version') ?? -1) > previous, than, {
    timeout,
  });
  return boardVersion(page);
}

/** The step texts in board order. */
export function stepTexts(page: Page): Promise<string[]> {
  return page.locator('.plan-list > li .item-text').allInnerTexts();
}

export const row = (page: Page, content: string): Locator =>
  page.locator('.plan-list > li').filter({ has: page.getByRole('button', { name: content, exact: true }) });

/** Adds a step through the add row and waits for main to store it. */
export async function addStep(page: Page, content: string): Promise<void> {
  const before = await boardVersion(page);
  await page.getByRole('textbox', { name: 'New step' }).fill(content);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await waitForNewVersion(page, before);
}

export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

/** Whether this run keeps screenshots to look at (KEEL_SCREENSHOTS=1); no test reads them. */
export const screenshotsWanted = (env: NodeJS.ProcessEnv = process.env): boolean => env.KEEL_SCREENSHOTS === '1';

/** Saves the page as test-results/screenshots/NAME.png when screenshots are wanted (or `always`); returns the path, or null. */
export async function screenshot(page: Page, name: string, options: { always?: boolean } = {}): Promise<string | null> {
  if (!options.always && !screenshotsWanted()) return null;
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
