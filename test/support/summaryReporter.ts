import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, "N passed, N failed, N skipped", that any reader (a person,
 * or a CI that does not know Vitest's own summary) can count. A test file that failed to load or
 * whose setup threw counts as one failure (its tests never ran, so they would otherwise all read
 * as skipped), and so does each error outside any test.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') failedTests++;
        else counts.skipped++;
      }
      counts.failed += failedTests;
      if (failedTests === 0 && (module.state() === 'failed' || module.errors().length > 0 || hasFailedSuite(module))) counts.failed++;
    }
    counts.failed += unhandledErrors.length;
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}

/** A describe block whose beforeAll threw fails while its tests are skipped. */
function hasFailedSuite(module: TestModule): boolean {
  for (const suite of module.children.allSuites()) if (suite.state() === 'failed') return true;
  return false;
}
