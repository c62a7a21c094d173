import type { AgentEvent } from '../../common/agentEvents';
import type { CallApproval, LiveCalls, ToolItem } from '../../common/chat';
import { applyAgentEvent } from '../../common/chatReducer';

/**
 * The open session's tool calls of its running (or last) task, folded from the agent's events as
 * the live chat folds them: a window that loads mid-call or after it gets the same cards (live
 * output, result, approval badges) although the transcript has no live output, no approvals, and
 * a round's results only once all of its calls have ended. Forgotten when the next task starts.
 */
export class LiveCallsTracker {
  private calls: ToolItem[] = [];
  private approvals: CallApproval[] = [];

  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'task_started':
        this.calls = [];
        this.approvals = [];
        return;
      case 'tool_call':
        this.calls = [...this.calls.filter((call) => call.id !== event.id), { kind: 'tool', id: event.id, name: event.name, input: event.input }];
        return;
      case 'tool_output':
      case 'tool_result': {
        const at = this.calls.findIndex((call) => call.id === event.id);
        if (at < 0) return;
        const [folded] = applyAgentEvent([this.calls[at]!], event, () => event.id);
        if (folded?.kind !== 'tool') return;
        // Once it has its result, the live output is no longer shown: it is not kept either.
        const { output: _output, ...ended } = folded;
        const next = folded.result ? ended : folded;
        this.calls = this.calls.map((call, i) => (i === at ? next : call));
        return;
      }
      case 'approval_requested':
        this.approvals = [...this.approvals, { request: event.request }];
        return;
      case 'approval_resolved':
        this.approvals = this.approvals.map((approval) => (approval.request.id === event.id ? { ...approval, decision: event.decision } : approval));
        return;
      default:
        return;
    }
  }

  snapshot(): LiveCalls {
    return { calls: this.calls, approvals: this.approvals };
  }
}
