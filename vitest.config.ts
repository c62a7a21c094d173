import { configDefaults, defineConfig } from 'vitest/config';

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Test files that share one module graph per worker instead of loading the core (or the tools,
 * the SDK, zod) again each: loading it cost more than most of their tests (about 3 s a file).
 * A file belongs here only when it restores every global it changes (process.env, timers,
 * module-level caches such as the login PATH, the sandbox helper's config); the terminal,
 * platform, packaging and sandbox tests change them, and stay isolated.
 */
const SHARED_MODULES = [
  'test/integration/agent/**/*.test.ts',
  'test/integration/changes/**/*.test.ts',
  'test/integration/mcp/**/*.test.ts',
  'test/integration/web/**/*.test.ts',
  'test/integration/workbench/**/*.test.ts',
  'test/integration/limits.test.ts',
  'test/integration/sessions.test.ts',
  'test/integration/webHost.test.ts',
  ...['agent', 'api', 'cli', 'common', 'context', 'electron', 'images', 'mcp', 'mentions', 'models', 'network', 'plan', 'renderer', 'session', 'tools'].map(
    (dir) => `test/unit/${dir}/**/*.test.ts`,
  ),
  'test/unit/scriptedAnthropic*.test.ts',
];

export default defineConfig({
  define: { __KEEL_VERSION__: JSON.stringify(pkg.version), __KEEL_TEST_HOOKS__: 'false' },
  test: {
    testTimeout: 30_000,
    // The sandbox's own tests (test/integration/sandbox, ...) turn it on with KEEL_SANDBOX=required;
    // the rest test what they test without a helper per core, and reach loopback servers freely.
    // PYENV_REHASH_TIMEOUT: a shell a test kills while pyenv's start-up rehash runs (a closed tab,
    // a stopped keel web) leaves its lock file, and on a machine whose .bashrc runs `pyenv init`
    // every later shell then waits 60 s for it, longer than any test waits for a prompt.
    env: { KEEL_SANDBOX: 'off', PYENV_REHASH_TIMEOUT: '1' },
    hookTimeout: 60_000,
    // Browser tests each start a Chromium; on two cores more than two at once only thrash.
    maxWorkers: 2,
    reporters: ['default', './test/support/summaryReporter.ts'],
    projects: [
      {
        extends: true,
        // These files leave no global state behind, so one worker runs them one after another
        // on the modules it has already loaded.
        test: { name: 'shared', include: SHARED_MODULES, isolate: false },
      },
      {
        extends: true,
        // The browser tests change no global of the test process (their state is in `keel web`,
        // Chromium and temporary folders), so they too share one module graph per worker: loading
        // Playwright, the SDK and the scripted model again cost each file about 2 s.
        test: {
          name: 'browser',
          include: ['test/e2e/**/*.test.ts'],
          isolate: false,
          // Makes sure the browser tests have a Chromium (installs Debian's as root, or says how).
          globalSetup: ['./test/support/globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED_MODULES, 'test/e2e/**'],
        },
      },
    ],
  },
});
