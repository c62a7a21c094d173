import { workspaceTools } from '../main/agent/workspaceTools';
import { startAgentHarness } from '../test/support/agentHarness';
import { reply, text, toolUse, type Step } from '../test/support/scriptedAnthropic';

/** How long the folder is open before the task's first answer. */
export const OPEN_FOR_MS = 2000;

export interface DelegateTiming {
  /** From the main agent's `delegate` call to the helper's first request at the model. */
  firstRequest: number;
  /** From the call to the helper's second request, which carries its first tool's result: its worktree was ready by then. */
  firstToolResult: number;
}

/**
 * `runs` helpers, one after another in one task, in a git workspace that `build` makes: how long
 * each `delegate` call takes to reach its helper's first request at the scripted model, and its
 * first tool result (the write waits for the worktree's checkout). Real core, SDK and git.
 */
export async function timeDelegates(build: (workspace: string) => void, runs: number): Promise<DelegateTiming[]> {
  const steps = Array.from({ length: runs }, (_, i) => ({ id: `s${i}`, content: `Write note${i}.txt`, status: 'pending' }));
  const instructions = (i: number) => `Write note${i}.txt saying ${i}.`;
  const calledAt: number[] = [];
  const firstAt: number[] = [];
  const secondAt: number[] = [];
  const main: Step[] = [
    // The person types for a moment after opening the folder: what Keel does at open (the sweep of
    // a crashed run's worktrees, which a first delegate waits for) is over, as it is in real use.
    { ...reply(toolUse('todo', { items: steps })), delayMs: OPEN_FOR_MS },
    ...steps.map((step, i) => () => {
      calledAt[i] = performance.now();
      return reply(toolUse('delegate', { item: step.id, instructions: instructions(i) }));
    }),
    reply(text('All written.')),
  ];
  const agents = steps.map((_, i) => ({
    name: `helper ${i}`,
    firstMessage: instructions(i),
    script: [
      () => {
        firstAt[i] = performance.now();
        return reply(toolUse('write_file', { path: `note${i}.txt`, content: `${i}\n` }));
      },
      () => {
        secondAt[i] = performance.now();
        return reply(text(`Wrote note${i}.txt.`));
      },
    ] satisfies Step[],
  }));
  const harness = await startAgentHarness(main, { tools: workspaceTools(), beforeOpen: build, server: { agents } });
  try {
    const finished = new Promise<string>((resolve) => {
      const stop = harness.core.onEvent((event) => {
        if (event.channel === 'agent.event' && event.payload.type === 'task_finished') {
          stop();
          resolve(event.payload.outcome);
        }
      });
    });
    const sent = await harness.core.handlers['task.send']({ text: 'Write the notes.' });
    if (!sent.ok) throw new Error(sent.error.message);
    const outcome = await finished;
    if (outcome !== 'done') throw new Error(`the task ended ${outcome}`);
    if (harness.server.errors.length > 0) throw new Error(`the scripted server: ${harness.server.errors[0]!.message}`);
    // The answer with the delegate call is timed from when the server gives it: the call starts right after.
    return steps.map((_, i) => ({ firstRequest: firstAt[i]! - calledAt[i]!, firstToolResult: secondAt[i]! - calledAt[i]! }));
  } finally {
    await harness.close();
  }
}
