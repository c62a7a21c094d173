import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { withScriptedWindow } from './support/scriptedWindow';
import { reply, toolUse } from '../support/scriptedAnthropic';

/*
 * A search as the person sees it in `keel web`: its matches appear on the card while it runs,
 * the window stays usable, and Stop ends it at once, the card saying it was stopped.
 */

describe('search_text card (keel web)', () => {
  test('shows matches while the search runs, and says "Stopped" after Stop', { timeout: 90_000 }, async () => {
    const home = tempDir('search-home');
    const root = tempDir('search-ws');
    const folder = join(root.path, 'project');
    mkdirSync(folder);
    writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'full_auto' }));
    writeFileSync(join(folder, 'a.txt'), 'the needle is here\n');
    // A line on which `(a+)+(?=b)` (look-ahead: the backtracking engine) backtracks for longer than any test runs: the search is still going when Stop comes.
    writeFileSync(join(folder, 'b.txt'), `${'a'.repeat(40)}!\n`);
    try {
      await withScriptedWindow(
        { workspace: folder, keelHome: home.path, script: [reply(toolUse('search_text', { pattern: 'needle|(a+)+(?=b)' }))] },
        async ({ page }) => {
          const composer = page.getByRole('textbox', { name: 'Message to the agent' });
          await composer.fill('Find the needle');
          await composer.press('Enter');

          const card = page.locator('section.chat-panel .tool-card[data-tool="search_text"]');
          await card.locator('.tool-meta', { hasText: '1 match' }).waitFor({ timeout: 30_000 });
          await card.locator('.tool-head').click();
          expect(await card.locator('.tool-body pre.tool-output').innerText()).toBe('a.txt:1: the needle is here');
          await screenshot(page, 'search-streaming-running');

          await page.getByRole('button', { name: 'Stop' }).click();
          const stopped = card.locator('.tool-error');
          await stopped.waitFor({ timeout: 10_000 });
          expect(await stopped.innerText()).toContain(
            'Stopped: the task was cancelled while searching ".". The 1 matching lines above were found before that.',
          );
          await screenshot(page, 'search-streaming-stopped');
        },
      );
    } finally {
      home.remove();
      root.remove();
    }
  });
});
