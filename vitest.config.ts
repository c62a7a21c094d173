import { defineConfig } from 'vitest/config';

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __KEEL_VERSION__: JSON.stringify(pkg.version), __KEEL_TEST_HOOKS__: 'false' },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // The sandbox's own tests (test/integration/sandbox, ...) turn it on with KEEL_SANDBOX=required;
    // the rest test what they test without a helper per core, and reach loopback servers freely.
    env: { KEEL_SANDBOX: 'off' },
    hookTimeout: 60_000,
    // Browser tests each start a Chromium; on two cores more than two at once only thrash.
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // Makes sure the browser tests have a Chromium (installs Debian's as root, or says how).
    globalSetup: ['./test/support/globalSetup.ts'],
  },
});
