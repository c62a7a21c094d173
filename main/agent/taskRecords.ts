import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent, AgentState, TaskOutcome } from '../../common/agentEvents';
import type { TaskErrorCode } from '../../common/errorCodes';
import { unfinishedItems } from '../../common/plan/render';
import type { PlanItem } from '../../common/plan/types';
import type { ChangeRecorder } from '../changes/recorder';
import type { WorkspaceSession } from '../session/workspaceSession';
import { chatExtrasOf, type MessageAttachments } from './messageAttachments';
import { ModelError } from './modelClient';
import { STOPPED_MESSAGE } from './modelTexts';

export interface TaskResult {
  taskId: string;
  outcome: TaskOutcome;
  message?: string;
  /** With `error`: why, for whoever branches on it (the message is main's English). */
  errorCode?: TaskErrorCode;
}

/** How a task ended, before it is known which task: what the loop's helpers return. */
export type TaskEnding = Omit<TaskResult, 'taskId'>;

/** A task's start: kept in the transcript, told to the change recorder and the window. */
export function recordTaskStart(
  options: { session: WorkspaceSession; changes?: ChangeRecorder | undefined },
  taskId: string,
  text: string,
  attachments: MessageAttachments | undefined,
  emit: (event: AgentEvent) => void,
): void {
  const extras = chatExtrasOf(attachments);
  options.session.recordTask({ event: 'start', taskId, text, ...extras });
  options.changes?.taskStarted(taskId, text);
  emit({ type: 'task_started', taskId, text, ...extras });
}

/** A stopped task keeps a valid history: whatever was answered so far is saved, the rest normalised. */
export function cancelledTask(session: WorkspaceSession, taskId: string, pending: ContentBlockParam[]): TaskResult {
  if (pending.length > 0) session.appendMessage({ role: 'user', content: pending });
  return { taskId, outcome: 'cancelled', message: STOPPED_MESSAGE };
}

/** A task whose loop threw: a model error keeps its code, anything else is `internal`. */
export function failedTask(taskId: string, error: unknown): TaskResult {
  const errorCode = error instanceof ModelError ? error.code : 'internal';
  return { taskId, outcome: 'error', message: error instanceof Error ? error.message : String(error), errorCode };
}

const STATE_AFTER: Record<TaskOutcome, AgentState> = {
  done: 'done',
  stopped_unfinished: 'stopped_unfinished',
  cancelled: 'cancelled',
  error: 'error',
  refused: 'error',
};

export interface TaskEnd {
  /** The agent's state from now on. */
  state: AgentState;
  /** The plan's open steps at the end, so the session list can tell "done" from "plan unfinished". */
  openSteps: number;
  /** With `stopped_unfinished`: the steps still open. */
  unfinished?: PlanItem[];
}

/**
 * Keeps a task's end in the transcript and tells the change recorder. A stopped or failed task is
 * usually continued: the person's steps stay theirs until one is done.
 */
export function recordTaskEnd(session: WorkspaceSession, changes: ChangeRecorder | undefined, result: TaskResult): TaskEnd {
  const unfinished = result.outcome === 'stopped_unfinished' ? unfinishedItems(session.plan.items) : undefined;
  const openSteps = unfinishedItems(session.plan.items).length;
  session.recordTask({
    event: 'end',
    taskId: result.taskId,
    outcome: result.outcome,
    openSteps,
    ...(result.message ? { message: result.message } : {}),
    ...(result.errorCode ? { errorCode: result.errorCode } : {}),
  });
  changes?.taskEnded(result.taskId);
  if (result.outcome === 'done') session.plan.endTask();
  return { state: STATE_AFTER[result.outcome], openSteps, ...(unfinished ? { unfinished } : {}) };
}
