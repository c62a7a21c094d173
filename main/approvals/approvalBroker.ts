import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequest } from '../../common/approvals';

type Waiter = { request: ApprovalRequest; resolve: (decision: ApprovalDecision) => void };

/**
 * Holds the approval cards that wait for the person. A stop of the task answers them all as
 * denied, so the loop never hangs on a card nobody will click.
 */
export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiter>();

  get pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  ask(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): { request: ApprovalRequest; decision: Promise<ApprovalDecision> } {
    const full: ApprovalRequest = { ...request, id: randomUUID() };
    const decision = new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) return resolve({ decision: 'deny', reason: 'The task was stopped.' });
      const onAbort = () => this.answer(full.id, { decision: 'deny', reason: 'The task was stopped.' });
      // The listener goes with the card: a long task asks many times on the same signal.
      this.waiting.set(full.id, {
        request: full,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return { request: full, decision };
  }

  /** Returns false when no card with that id is waiting (already answered, or stale). */
  answer(id: string, decision: ApprovalDecision): boolean {
    const waiter = this.waiting.get(id);
    if (!waiter) return false;
    this.waiting.delete(id);
    waiter.resolve(decision);
    return true;
  }
}
