import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { AgentEvent } from '../../../common/agentEvents';
import type { AgentTool } from '../../../main/agent/toolRunner';
import type { AgentHarness } from '../../support/agentHarness';
import { lastMessage, type ScriptedRequest } from '../../support/scriptedAnthropic';

/** Shared pieces of the agent scenarios: sending a task the way the window does, and reading requests. */

export type TaskFinished = Extract<AgentEvent, { type: 'task_finished' }>;

/** Sends a task through the contract (`task.send`), as the window does, and waits for it to end. */
export async function sendTask(harness: AgentHarness, text: string, timeoutMs = 20_000): Promise<TaskFinished> {
  const sent = await harness.core.handlers['task.send']({ text });
  if (!sent.ok) throw new Error(`task.send failed: ${sent.error.message}`);
  return waitForEvent(harness, (e): e is TaskFinished => e.type === 'task_finished' && e.taskId === sent.value.taskId, timeoutMs);
}

/** Resolves with the first event (already seen or still to come) that matches. */
export async function waitForEvent<T extends AgentEvent>(harness: AgentHarness, match: (event: AgentEvent) => event is T, timeoutMs = 20_000): Promise<T> {
  return waitFor(() => harness.events.find(match), `no matching agent event within ${timeoutMs} ms`, timeoutMs);
}

/** Polls until `probe` returns something other than undefined/false. */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The blocks of the request's last message. */
export function lastBlocks(request: ScriptedRequest): Anthropic.ContentBlockParam[] {
  const last = lastMessage(request);
  if (!last) return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
}

/** The text blocks of the request's last message whose text starts with `tag`, e.g. `<reminder>`. */
export function taggedBlocks(request: ScriptedRequest, tag: string): Anthropic.TextBlockParam[] {
  return lastBlocks(request).filter((b): b is Anthropic.TextBlockParam => b.type === 'text' && b.text.startsWith(tag));
}

/** Checks that no text (or other) block comes before a tool_result in the last message. */
export function toolResultsLead(request: ScriptedRequest): boolean {
  const blocks = lastBlocks(request);
  const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
  return firstOther === -1 || blocks.slice(firstOther).every((b) => b.type !== 'tool_result');
}

/** Every block of the whole request, with its message's role. */
export function allBlocks(request: ScriptedRequest): { role: string; block: Anthropic.ContentBlockParam }[] {
  return request.body.messages.flatMap((m) =>
    (typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content).map((block) => ({ role: m.role, block })),
  );
}

/** A tool that records every call and answers at once. */
export function recordingTool(name: string): AgentTool & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name,
    calls,
    description: `Test tool ${name}.`,
    inputSchema: z.object({}).passthrough(),
    async run(input) {
      calls.push(input);
      return { content: `${name} ran`, isError: false };
    },
  };
}

/**
 * A tool that runs until the task is stopped (it resolves when its signal aborts), like a long
 * command. `started` settles when it begins.
 */
export function untilStoppedTool(name = 'wait_forever'): AgentTool & { started: Promise<void>; sawAbort: () => boolean } {
  let markStarted = (): void => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let aborted = false;
  return {
    name,
    started,
    sawAbort: () => aborted,
    description: 'Waits until the task is stopped.',
    inputSchema: z.object({}).passthrough(),
    run(_input, context) {
      markStarted();
      return new Promise((resolve) => {
        const done = () => {
          aborted = true;
          resolve({ content: 'stopped waiting', isError: false });
        };
        if (context.signal.aborted) done();
        else context.signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}

/** Plan items as the model writes them (any status text: the validator judges it). */
export function items(...entries: [content: string, status: string][]): { content: string; status: string }[] {
  return entries.map(([content, status]) => ({ content, status }));
}
