import { describe, expect, it } from 'vitest';
import { canContinue, settledAgentState, settledOutcome } from '../../../common/plan/sessionState';
import type { PlanItem } from '../../../common/plan/types';
import { aboutTheChangedStep, startInstead, undoOverride } from '../../../renderer/plan/proposals';

describe('settledOutcome: one state for the session list, the status bar, the board and the chat', () => {
  it('a task that ended "done" with steps open (after Continue) is unfinished, not Done', () => {
    expect(settledOutcome('done', 3, 3)).toBe('stopped_unfinished');
    expect(settledAgentState('done', false, 3, 3)).toBe('stopped_unfinished');
  });

  it('a plan marked done after the gate stopped the task is Done everywhere', () => {
    expect(settledOutcome('stopped_unfinished', 0, 2)).toBe('done');
    expect(settledAgentState('stopped_unfinished', false, 0, 2)).toBe('done');
  });

  it('steps the person adds after a finished task are new work: the task stays Done', () => {
    expect(settledOutcome('done', 2, 0)).toBe('done');
  });

  it('while running, and for stops and errors, the recorded state stands', () => {
    expect(settledAgentState('thinking', true, 3, 0)).toBe('thinking');
    expect(settledOutcome('cancelled', 2, 2)).toBe('cancelled');
    expect(settledOutcome('error', 0, 0)).toBe('error');
    expect(settledOutcome(null, 2)).toBeNull();
  });

  it('Continue is offered after the person’s stop as after the gate’s, while steps are open', () => {
    expect(canContinue('cancelled', 1)).toBe(true);
    expect(canContinue('stopped_unfinished', 2)).toBe(true);
    expect(canContinue('cancelled', 0)).toBe(false);
    expect(canContinue('done', 2)).toBe(false);
  });
});

const step = (id: string, content: string, status: PlanItem['status'] = 'pending'): PlanItem => ({ id, content, status });

describe('board proposals for issue 16', () => {
  const stored = [step('1', 'Check the logs', 'in_progress'), step('2', 'Restart the service')];

  it('"only one in progress" is said about the step the person changed, naming the one that already was', () => {
    const sent = [{ ...stored[0]! }, { ...stored[1]!, status: 'in_progress' }];
    const fromValidator = [
      { index: 1, message: 'm', code: 'several_in_progress', params: { item: 2, content: 'Restart the service', other: 'Check the logs', otherIndex: 0 } },
    ];
    expect(aboutTheChangedStep(fromValidator, sent, stored)).toEqual(fromValidator);
    // The person started the FIRST step while the second was in progress: the validator marked the second.
    const storedOther = [step('1', 'Check the logs'), step('2', 'Restart the service', 'in_progress')];
    const sentOther = [{ ...storedOther[0]!, status: 'in_progress' }, { ...storedOther[1]! }];
    expect(aboutTheChangedStep(fromValidator, sentOther, storedOther)).toEqual([
      { index: 0, message: 'm', code: 'several_in_progress', params: { item: 1, content: 'Check the logs', other: 'Restart the service', otherIndex: 1 } },
    ]);
  });

  it('start instead: the other step pending and this one in progress, in one list', () => {
    expect(startInstead(stored, '2', '1')!.map((item) => item.status)).toEqual(['pending', 'in_progress']);
  });

  it('undoing an override: re-add where it stood, restore the wording, delete the returned step', () => {
    expect(undoOverride(stored, { kind: 'dropped', item: step('9', 'Update the changelog'), index: 1 })!.map((i) => i.content)).toEqual([
      'Check the logs',
      'Update the changelog',
      'Restart the service',
    ]);
    expect(undoOverride(stored, { kind: 'dropped', item: step('9', 'restart the service'), index: 0 })).toBeNull();
    expect(undoOverride(stored, { kind: 'reworded_back', id: '2', yours: 'Restart it', theirs: 'Restart the service' })![1]!.content).toBe('Restart it');
    expect(undoOverride(stored, { kind: 'restored', item: stored[1]!, deleted: stored[1]! })!.map((i) => i.id)).toEqual(['1']);
  });
});
