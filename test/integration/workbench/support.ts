import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { AgentEvent } from '../../../common/agentEvents';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { bashTool } from '../../../main/tools/bash';
import { fileTools } from '../../../main/tools/files';
import type { AgentHarness } from '../../support/agentHarness';
import { lastMessage, type ScriptedRequest } from '../../support/scriptedAnthropic';

/** Shared pieces of the workbench tests: what the window does over the contract, and reading what the model got. */

export type TaskFinished = Extract<AgentEvent, { type: 'task_finished' }>;
export type EventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** The real workspace tools: files and bash. */
export const realTools = (): AgentTool[] => [...fileTools, bashTool as unknown as AgentTool];

/** Polls until `probe` returns something other than undefined/false. */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The events of one type seen so far. */
export function eventsOf<T extends AgentEvent['type']>(h: AgentHarness, type: T): EventOf<T>[] {
  return h.events.filter((e): e is EventOf<T> => e.type === type);
}

/** Waits for the `n`-th (1-based) event of a type. */
export function nthEvent<T extends AgentEvent['type']>(h: AgentHarness, type: T, n = 1): Promise<EventOf<T>> {
  return waitFor(() => eventsOf(h, type)[n - 1], `${type} event #${n}`);
}

/** Sends a message through the contract as the window does. */
export async function send(h: AgentHarness, text: string): Promise<{ taskId: string; queued: boolean }> {
  const sent = await h.core.handlers['task.send']({ text });
  if (!sent.ok) throw new Error(`task.send failed: ${sent.error.message}`);
  return sent.value;
}

/** Starts a task; `finished` settles when it ends. */
export async function startTask(h: AgentHarness, text: string): Promise<{ taskId: string; finished: Promise<TaskFinished> }> {
  const { taskId, queued } = await send(h, text);
  if (queued) throw new Error('expected a new task, the message was queued');
  return { taskId, finished: waitFor(() => eventsOf(h, 'task_finished').find((e) => e.taskId === taskId), `task ${taskId} to finish`) };
}

export async function runTask(h: AgentHarness, text: string): Promise<TaskFinished> {
  return (await startTask(h, text)).finished;
}

/** Answers an approval card as the window's buttons do. */
export async function answer(h: AgentHarness, id: string, decision: 'allow_once' | 'allow_session' | { deny: string }): Promise<boolean> {
  const answered = await h.core.handlers['approval.respond']({
    id,
    answer: typeof decision === 'string' ? { decision } : { decision: 'deny', reason: decision.deny },
  });
  if (!answered.ok) throw new Error(answered.error.message);
  return answered.value.answered;
}

export async function status(h: AgentHarness) {
  const result = await h.core.handlers['agent.status']({});
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Unwraps a contract result, failing the test with its message. */
export function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** The blocks of the request's last message. */
export function lastBlocks(request: ScriptedRequest): Anthropic.ContentBlockParam[] {
  const last = lastMessage(request);
  if (!last) return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
}

/**
 * A tool that runs until the test releases it, like a long command; `started` settles when it
 * begins. A stop of the task also ends it.
 */
export function gatedTool(name = 'long_job'): AgentTool & { started: Promise<void>; release: () => void; calls: number } {
  let markStarted = (): void => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const tool = {
    name,
    started,
    release: () => release(),
    calls: 0,
    description: 'Runs until released.',
    inputSchema: z.object({}).passthrough(),
    async run(_input: unknown, context: { signal: AbortSignal }) {
      tool.calls++;
      markStarted();
      await Promise.race([released, new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }))]);
      return { content: context.signal.aborted ? 'interrupted' : `${name} finished`, isError: false };
    },
  };
  return tool;
}
