import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../common/approvals';
import { bashTool } from '../../../main/tools/bash';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';
import { sandboxWorksHere } from '../../support/sandboxProbe';

// The first command of a session is asked while the sandbox may still be checking itself: its card
// must say what will happen, a sandboxed run, and "Allow for this session" must allow the sandbox.

const works = await sandboxWorksHere('the first command’s card in the sandbox');

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.runIf(works)('a session’s first command in Ask first, sandbox on', () => {
  it('is asked as a sandboxed command; allowing it for the session lets the next commands run unasked', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('bash', { command: 'ls' })),
        reply(toolUse('bash', { command: 'cat notes.txt || true' })),
        reply(toolUse('bash', { command: 'wc -c notes.txt || true' })),
        reply(text('Done.')),
      ],
      // Settings as the window saves them, with no KEEL_SANDBOX=off from the test run's environment.
      { tools: [bashTool], approvals: 'ask', settingsFile: { sandbox: 'auto' }, settingsFromFile: true },
    );
    const cards: ApprovalRequest[] = [];
    const stop = harness.core.onEvent((event) => {
      if (event.channel === 'agent.event' && event.payload.type === 'approval_requested') {
        cards.push(event.payload.request);
        void harness!.core.handlers['approval.respond']({ id: event.payload.request.id, answer: { decision: 'allow_session' } });
      }
    });
    try {
      // Sent at once: the sandbox's own start-up check is still running when the model asks for `ls`.
      expect((await sendTask(harness, 'look around')).outcome).toBe('done');
    } finally {
      stop();
    }
    await waitFor(() => cards.length > 0, 'a card');
    expect(cards.map((card) => [card.command, card.sandboxed, card.sessionRule])).toEqual([['ls', true, 'sandbox:commands']]);
  }, 60_000);
});
