import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChangeActionResult, TaskChanges } from '../../../common/contract';
import type { Result } from '../../../common/result';
import type { KeelCore } from '../../../main/api/core';
import { fileTools } from '../../../main/tools/files';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import type { Step } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';

/** Shared pieces of the Changes scenarios: the real agent with the real file tools on real files. */

export interface ChangesHarness extends AgentHarness {
  /** How many `changes.changed` events the core has sent. */
  changedEvents(): number;
  write(relative: string, bytes: string | Buffer): string;
  read(relative: string): Buffer;
  /** Runs a task through `task.send` and returns its id once it ended done. */
  task(text: string): Promise<string>;
}

export async function startChangesHarness(script: Step[], options: { log?: (message: string) => void } = {}): Promise<ChangesHarness> {
  const harness = await startAgentHarness(script, { tools: fileTools, ...(options.log ? { core: { log: options.log } } : {}) });
  let changed = 0;
  harness.core.onEvent((event) => {
    if (event.channel === 'changes.changed') changed++;
  });
  return {
    ...harness,
    changedEvents: () => changed,
    write(relative, bytes) {
      const absolute = path.join(harness.workspace, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, bytes);
      return absolute;
    },
    read: (relative) => readFileSync(path.join(harness.workspace, relative)),
    async task(text) {
      const finished = await sendTask(harness, text);
      if (finished.outcome !== 'done') throw new Error(`The task ended ${finished.outcome}: ${finished.message ?? ''}`);
      if (harness.server.errors.length > 0) throw new Error(`The scripted server saw errors: ${harness.server.errors.map((e) => e.message).join('; ')}`);
      return finished.taskId;
    },
  };
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

export async function listChanges(core: KeelCore): Promise<TaskChanges[]> {
  return unwrap(await core.handlers['changes.list']({}));
}

export async function undo(core: KeelCore, input: { taskId: string; path?: string; force?: boolean }): Promise<ChangeActionResult> {
  return unwrap(await core.handlers['changes.undo'](input));
}

export async function redo(core: KeelCore, input: { taskId: string; path?: string; force?: boolean }): Promise<ChangeActionResult> {
  return unwrap(await core.handlers['changes.redo'](input));
}

/** `{ path: state }` of every listed file of a task, for compact assertions. */
export function states(tasks: TaskChanges[], taskId: string): Record<string, string> {
  const task = tasks.find((t) => t.taskId === taskId);
  return Object.fromEntries((task?.files ?? []).map((f) => [f.path, f.state]));
}
