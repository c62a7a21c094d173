import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accessibilityProblems } from './support/axe';
import { screenshot } from './support/board';
import { useScriptedWindow } from './support/scriptedWindow';
import { cited, reply, text, webSearch } from '../support/scriptedAnthropic';

// The pages an answer from the API's web search cites are listed under it, numbered, with title
// and host; each is a link that opens outside the window as the answer's links do, and nothing of
// a page is loaded. After a reload they are read back from the session, and the cited blocks go
// back to the API exactly as they came.

const MODEL = 'claude-sonnet-5-5';
const DOCS = { url: 'https://vitest.dev/guide/projects', title: 'Test Projects | Vitest' };
const BLOG = { url: 'https://blog.example.org/vitest', title: 'Vitest in practice' };
const ANSWER = 'In short: each project has its own config, and a root config lists them.';

const keel = useScriptedWindow({
  model: { catalogue: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000, serverTools: ['web_search'] }] },
  script: [
    reply(
      ...webSearch('vitest projects config', [DOCS, BLOG]),
      text('In short: '),
      cited('each project has its own config', DOCS),
      text(', and '),
      cited('a root config lists them.', BLOG, DOCS),
    ),
    reply(text('It is vitest.config.ts.')),
  ],
  // The scripted server is not Anthropic's host: `on` offers the search wherever the catalogue lists it.
  env: { KEEL_MODEL: MODEL, KEEL_WEB_SEARCH: 'on' },
});

const answer = (page: Page) => page.locator('section.chat-panel .chat-assistant').filter({ hasText: 'In short:' });
const sources = (page: Page) => answer(page).getByRole('region', { name: 'Sources' });

/** Every address a page asks for that is not Keel's own. */
function remoteRequests(page: Page, origin: string): string[] {
  const remote: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) remote.push(url);
  });
  return remote;
}

async function expectSources(page: Page): Promise<void> {
  await expect.poll(() => sources(page).getByRole('listitem').allInnerTexts()).toEqual([`${DOCS.title}vitest.dev`, `${BLOG.title}blog.example.org`]);
  const links = sources(page).getByRole('link');
  expect(await links.count()).toBe(2);
  for (const [i, page_] of [DOCS, BLOG].entries()) {
    const link = links.nth(i);
    expect(await link.getAttribute('href')).toBe(page_.url);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  }
  // Numbered in the order first cited; a page cited twice is listed once.
  expect(await sources(page).locator('ol').count()).toBe(1);
  expect(await sources(page).locator('img, iframe').count()).toBe(0);
}

describe('the sources an answer cites', () => {
  test('are listed under the answer, numbered, each a link that opens outside; nothing is loaded', async () => {
    const page = keel.page;
    const remote = remoteRequests(page, new URL(keel.keel.url).origin);
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('How do Vitest projects work?');
    await composer.press('Enter');
    await answer(page).getByText(ANSWER).waitFor();
    // One answer from the many text blocks, as it streamed.
    expect(await answer(page).count()).toBe(1);
    await expectSources(page);
    await screenshot(page, 'chat-sources-light');
    expect(remote).toEqual([]);
  }, 60_000);

  test('are there after a reload, and the cited blocks go back to the API as they came', async () => {
    const page = keel.page;
    await page.reload();
    await answer(page).getByText(ANSWER).waitFor();
    expect(await answer(page).count()).toBe(1);
    await expectSources(page);

    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('And the config file?');
    await composer.press('Enter');
    await page.getByText('It is vitest.config.ts.').waitFor();
    const second = keel.server.requests[1]!;
    expect(second.rejected).toBeUndefined();
    const sent = second.body.messages.find((m) => m.role === 'assistant')!.content as ContentBlockParam[];
    const withoutCache = sent.map((block) => {
      const { cache_control: _cache, ...rest } = block as ContentBlockParam & { cache_control?: unknown };
      return rest;
    });
    expect(withoutCache).toEqual(keel.server.replies[0]!.content);
  }, 60_000);

  test('read in the dark theme', async () => {
    const page = await keel.openPage({ colorScheme: 'dark' });
    await answer(page).getByText(ANSWER).waitFor();
    await expectSources(page);
    await screenshot(page, 'chat-sources-dark');
    expect(await accessibilityProblems(page)).toEqual([]);
    await keel.closePages();
  }, 60_000);
});
