import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceTools } from '../main/agent/workspaceTools';
import { startAgentHarness } from '../test/support/agentHarness';
import { reply, text, toolUse, type StaticStep, type Step } from '../test/support/scriptedAnthropic';
import { sized } from './quick';
import { commitFolder } from '../test/support/gitRepo';

/** Each model answer's fixed wait: the model "thinking", which is what helpers overlap. */
const DELAY_MS = sized(400, 150);
const STEPS = ['one', 'two', 'three', 'four'] as const;
const GOAL = 0.4;
/**
 * Model answers each run waits for one after another: one agent 1 + 4 × 4 + 2 (its last todo
 * completes its last step); helpers 2 + 4 + 1 (the four helpers' answers overlap, and Keel
 * completes each helper's step itself, as the delegate result tells the model).
 */
const ALONE_IN_TURN = 1 + STEPS.length * 4 + 2;
const HELPED_IN_TURN = 2 + 4 + 1;

const slow = (step: StaticStep): StaticStep => ({ ...step, delayMs: DELAY_MS });

/** One step's work, as either agent does it: write its file, read it back, append a line, say so. */
function stepWork(name: string, id: string): StaticStep[] {
  const path = `${name}.txt`;
  return [
    slow(reply(toolUse('write_file', { path, content: `${name}\n` }, `toolu_${id}_w`))),
    slow(reply(toolUse('read_file', { path }, `toolu_${id}_r`))),
    slow(reply(toolUse('edit_file', { path, old_text: `${name}\n`, new_text: `${name}\nchecked\n` }, `toolu_${id}_e`))),
    slow(reply(text(`Wrote and checked ${path}.`))),
  ];
}

const plan = STEPS.map((name) => ({ id: name, content: `Write ${name}.txt`, status: 'pending' }));
const done = STEPS.map((name) => ({ id: name, content: `Write ${name}.txt`, status: 'completed' }));

/**
 * Issue 25's wall-time bench: a task of four independent steps, each four model answers of a fixed
 * delay, done by one agent (every answer in turn) against the main agent delegating the four steps
 * to helpers in one answer (each in its own git worktree, merged after), same run, same server
 * code, the real SDK and tools. Prints the two wall times and their ratio.
 */
export async function benchHelpersWallTime(): Promise<void> {
  // Alone, each step takes the same four answers: one that marks it in progress, then its three tool calls.
  const progress = (at: number) => plan.map((item, i) => ({ ...item, status: i < at ? 'completed' : i === at ? 'in_progress' : 'pending' }));
  const alone = await timeTask([
    slow(reply(toolUse('todo', { items: plan }))),
    ...STEPS.flatMap((name, i) => [slow(reply(toolUse('todo', { items: progress(i) }))), ...stepWork(name, name).slice(0, 3)]),
    slow(reply(toolUse('todo', { items: done }))),
    slow(reply(text('All four written.'))),
  ]);
  const helped = await timeTask(
    [
      slow(reply(toolUse('todo', { items: plan }))),
      slow(reply(...STEPS.map((name) => toolUse('delegate', { item: name, instructions: `Write ${name}.txt, read it back, and append "checked".` })))),
      slow(reply(text('All four written.'))),
    ],
    STEPS.map((name) => ({ name, firstMessage: `Write ${name}.txt, read it back, and append "checked".`, script: stepWork(name, `h_${name}`) })),
  );
  console.log(
    `helpers wall time: 4 independent steps of 4 model answers (${DELAY_MS} ms each): one agent ${(alone / 1000).toFixed(2)} s, with helpers ${(helped / 1000).toFixed(2)} s (${(helped / alone).toFixed(2)}x; goal <= ${GOAL}x)`,
  );
  // The answers each run must wait for in turn, at no cost for anything else: the best ratio this script allows.
  const floor = HELPED_IN_TURN / ALONE_IN_TURN;
  console.log(
    `  the answers alone: one agent ${ALONE_IN_TURN} in turn (${((ALONE_IN_TURN * DELAY_MS) / 1000).toFixed(2)} s), with helpers ${HELPED_IN_TURN} (main 2 + helper 4 + main 1: ${((HELPED_IN_TURN * DELAY_MS) / 1000).toFixed(2)} s), so ${floor.toFixed(2)}x at best; what Keel adds: one agent ${((alone - ALONE_IN_TURN * DELAY_MS) / 1000).toFixed(2)} s, with helpers ${((helped - HELPED_IN_TURN * DELAY_MS) / 1000).toFixed(2)} s`,
  );
}

async function timeTask(script: Step[], agents?: { name: string; firstMessage: string; script: Step[] }[]): Promise<number> {
  const harness = await startAgentHarness(script, {
    tools: workspaceTools(),
    beforeOpen: (workspace) => {
      writeFileSync(join(workspace, 'README.md'), '# Bench\n');
      commitFolder(workspace);
    },
    ...(agents ? { server: { agents } } : {}),
  });
  try {
    const finished = new Promise<string>((resolve) => {
      const stop = harness.core.onEvent((event) => {
        if (event.channel === 'agent.event' && event.payload.type === 'task_finished') {
          stop();
          resolve(event.payload.outcome);
        }
      });
    });
    const started = performance.now();
    const sent = await harness.core.handlers['task.send']({ text: 'Write the four files.' });
    if (!sent.ok) throw new Error(sent.error.message);
    const outcome = await finished;
    const wall = performance.now() - started;
    if (outcome !== 'done') throw new Error(`the task ended ${outcome}`);
    if (harness.server.errors.length > 0) throw new Error(`the scripted server: ${harness.server.errors[0]!.message}`);
    for (const name of STEPS) {
      const content = readFileSync(join(harness.workspace, `${name}.txt`), 'utf8');
      if (content !== `${name}\nchecked\n`) throw new Error(`${name}.txt holds ${JSON.stringify(content)}: the steps' work did not land`);
    }
    return wall;
  } finally {
    await harness.close();
  }
}
