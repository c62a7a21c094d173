import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../common/contract';
import { isolateShellEnvironment, TerminalHarness } from './support';

// A window may keep at most LIMITS.terminals shells; past that it is told why, and closing one makes room.

let restore: () => void;
let harness: TerminalHarness;

beforeAll(() => {
  restore = isolateShellEnvironment();
});
afterAll(() => restore());
beforeEach(() => {
  harness = new TerminalHarness();
});
afterEach(async () => {
  await harness.close();
});

describe('terminal cap', () => {
  it(
    `refuses terminal ${LIMITS.terminals + 1} with a clear error, also when asked for all at once, and makes room when one closes`,
    { timeout: 60_000 },
    async () => {
      const size = { cols: 80, rows: 24 };
      const answers = await Promise.all(Array.from({ length: LIMITS.terminals + 3 }, () => harness.core.handlers['terminal.create'](size)));
      const opened = answers.filter((a) => a.ok);
      const refused = answers.filter((a) => !a.ok);
      expect(opened).toHaveLength(LIMITS.terminals);
      expect(refused).toHaveLength(3);
      const error = refused[0]!.ok ? null : refused[0]!.error;
      expect(error?.code).toBe('limit_reached');
      expect(error?.message).toContain(`already ${LIMITS.terminals} terminals open`);
      expect(harness.core.terminals.list()).toHaveLength(LIMITS.terminals);

      const first = opened[0]!.ok ? opened[0]!.value : null;
      expect((await harness.core.handlers['terminal.close']({ id: first!.id })).ok).toBe(true);
      const again = await harness.core.handlers['terminal.create'](size);
      expect(again.ok).toBe(true);
    },
  );
});
