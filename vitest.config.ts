import { defineConfig } from 'vitest/config';

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __KEEL_VERSION__: JSON.stringify(pkg.version), __KEEL_TEST_HOOKS__: 'false' },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests each start a Chromium; on two cores more than two at once only thrash.
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // Makes sure the browser tests have a Chromium (installs Debian's as root, or says how).
    globalSetup: ['./test/support/globalSetup.ts'],
  },
});
