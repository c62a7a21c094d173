import type { Page } from 'playwright-core';

/**
 * The pages one test opened. A test's own `close` closes them before it stops `keel web` (a page
 * still loading a picture or reconnecting would log a refused connection that is no fault of the
 * window); `takeErrors`, after the test, closes what is left and gives every page's errors.
 */
export class TestPages {
  private open: { page: Page; errors: string[] }[] = [];
  private errors: string[] = [];

  track(opened: { page: Page; errors: string[] }): Page {
    this.open.push(opened);
    return opened.page;
  }

  async close(): Promise<void> {
    const pages = this.open;
    this.open = [];
    await Promise.all(pages.map(({ page }) => page.context().close()));
    this.errors.push(...pages.flatMap((p) => p.errors));
  }

  async takeErrors(): Promise<string[]> {
    await this.close();
    return this.errors.splice(0);
  }
}
