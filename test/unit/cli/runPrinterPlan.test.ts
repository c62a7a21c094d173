import { describe, expect, it } from 'vitest';
import { RunPrinter } from '../../../main/cli/runPrinter';

function printed(items: Parameters<RunPrinter['plan']>[0]['items']): string {
  let out = '';
  new RunPrinter({ write: (text) => (out += text) }).plan({ version: 1, source: 'agent', at: null, items });
  return out;
}

describe('the plan as keel run prints it', () => {
  it('shows each step with its #id and what blocks it, the progress in the heading, and what may start now', () => {
    expect(
      printed([
        { id: 'parse', content: 'Parse the input', status: 'completed' },
        { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] },
        { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] },
      ]),
    ).toBe(
      '\n── Plan (1/3 done, changed by agent) ──\n[x] #parse Parse the input\n[ ] #tests Write the tests (after #parse)\n[ ] #docs Write the docs (blocked by #tests)\nReady to start: #tests\n\n',
    );
  });

  it('prints a plan without dependencies without a ready line', () => {
    expect(printed([{ id: '1', content: 'Write hello.py', status: 'in_progress', activeForm: 'writing hello.py' }])).toBe(
      '\n── Plan (0/1 done, changed by agent) ──\n[>] #1 Write hello.py (writing hello.py)\n\n',
    );
  });
});
