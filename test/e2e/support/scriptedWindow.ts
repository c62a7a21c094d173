import type { Browser, Page } from 'playwright-core';
import { startScriptedAnthropic, type ScriptedAnthropic, type Step } from '../../support/scriptedAnthropic';
import { launchChromium, newPage } from './chromium';
import { startKeelWeb, type KeelWeb } from './keelWeb';

export interface ScriptedWindow {
  server: ScriptedAnthropic;
  keel: KeelWeb;
  browser: Browser;
  page: Page;
  /** Browser-side errors the page reported. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The usual start of a browser test: the scripted model, a `keel web` child on `workspace` that
 * talks to it, and a Chromium page on the window with the message box ready. What started is
 * stopped again when a later step fails.
 */
export async function openScriptedWindow(options: { script: Step[]; workspace: string; keelHome: string }): Promise<ScriptedWindow> {
  const stops: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const server = await startScriptedAnthropic({ apiKey: 'k', script: options.script });
    stops.push(() => server.close());
    const keel = await startKeelWeb({
      workspace: options.workspace,
      keelHome: options.keelHome,
      env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' },
    });
    stops.push(() => keel.stop());
    const browser = await launchChromium();
    stops.push(() => browser.close());
    const { page, errors } = await newPage(browser);
    await page.goto(keel.url);
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    return { server, keel, browser, page, errors, close };
  } catch (error) {
    await close();
    throw error;
  }
}
