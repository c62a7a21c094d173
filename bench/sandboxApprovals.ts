import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../common/agentEvents';
import { bashTool } from '../main/tools/bash';
import { startAgentHarness } from '../test/support/agentHarness';
import { reply, text, toolUse, type Step } from '../test/support/scriptedAnthropic';
import { sized } from './quick';

/** A scripted task's commands: what an agent runs while it looks around, builds and checks. */
const COMMANDS = [
  'ls',
  'cat notes.txt',
  'wc -l notes.txt',
  'grep -n milk notes.txt',
  'head -n 2 notes.txt',
  'sort notes.txt',
  'find . -name "*.txt"',
  'echo checking',
  'mkdir -p build',
  'cp notes.txt build/notes.txt',
  'ls build',
  'sed -n 1p notes.txt',
  'tail -n 1 notes.txt',
  'uniq notes.txt',
  'date +%Y',
  'python3 -c "print(2 + 2)"',
  'printf "a\\nb\\n" > build/list.txt',
  'cat build/list.txt',
  'diff notes.txt build/notes.txt',
  'tr a-z A-Z < notes.txt',
  'cut -c1-4 notes.txt',
  'du -s build',
  'stat -c %s notes.txt',
  'basename build/notes.txt',
  'env | grep -c PATH',
  'touch build/done',
  'test -f build/done && echo yes',
  'rm build/done',
  'git status --short || true',
  'echo finished',
];

/**
 * Approval cards a person answers in "Ask first" for one scripted task of COMMANDS.length bash
 * commands, always choosing "Allow for this session": with the sandbox on (one rule covers every
 * sandboxed command) against off (a rule per program, and some commands always ask), same run.
 * Cards are counted, not timed.
 */
export async function benchSandboxApprovals(): Promise<void> {
  const commands = COMMANDS.slice(0, sized(COMMANDS.length, 6));
  const on = await cardsFor(commands, 'auto');
  const off = await cardsFor(commands, 'off');
  if (on.sandboxed === 0) throw new Error('no card said "sandboxed": the sandbox did not start here, so there is nothing to compare');
  console.log(
    `sandbox approvals: ${commands.length}-command task in Ask first, every card answered "Allow for this session": sandbox on ${on.cards} card(s), off ${off.cards} card(s) (${(on.cards / off.cards).toFixed(2)}x)`,
  );
}

async function cardsFor(commands: readonly string[], sandbox: 'auto' | 'off'): Promise<{ cards: number; sandboxed: number }> {
  const script: Step[] = [...commands.map((command, i) => reply(toolUse('bash', { command }, `toolu_${i}`))), reply(text('Done.'))];
  const harness = await startAgentHarness(script, { tools: [bashTool], approvals: 'ask', settingsFile: { sandbox }, settingsFromFile: true });
  try {
    writeFileSync(join(harness.workspace, 'notes.txt'), 'buy milk\nbuy bread\n');
    let cards = 0;
    let sandboxed = 0;
    const answered = new Set<string>();
    const done = new Promise<void>((resolve, reject) => {
      const stop = harness.core.onEvent((event) => {
        if (event.channel !== 'agent.event') return;
        const agentEvent: AgentEvent = event.payload;
        if (agentEvent.type === 'approval_requested' && !answered.has(agentEvent.request.id)) {
          answered.add(agentEvent.request.id);
          cards++;
          if (agentEvent.request.sandboxed) sandboxed++;
          void harness.core.handlers['approval.respond']({ id: agentEvent.request.id, answer: { decision: 'allow_session' } });
        } else if (agentEvent.type === 'task_finished') {
          stop();
          if (agentEvent.outcome === 'done') resolve();
          else reject(new Error(`the task ended ${agentEvent.outcome}: ${agentEvent.message ?? ''}`));
        }
      });
    });
    const sent = await harness.core.handlers['task.send']({ text: 'Look around, build and check.' });
    if (!sent.ok) throw new Error(sent.error.message);
    await done;
    return { cards, sandboxed };
  } finally {
    await harness.close();
  }
}
