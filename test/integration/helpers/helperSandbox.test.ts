import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolUse } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';
import { sandboxWorksHere } from '../../support/sandboxProbe';
import { commitFolder } from '../../support/gitRepo';

// A helper in its own worktree runs its commands in a sandbox of its own, under the folder's
// setting: with "required", nothing it runs may write outside its worktree.

const works = await sandboxWorksHere('helpers in the sandbox');

let harness: AgentHarness | undefined;
const escape = join(homedir(), `keel-helper-escape-${process.pid}`);
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(escape, { force: true });
});

describe.runIf(works)('a helper in a worktree, sandbox required', { timeout: 60_000 }, () => {
  it('writes inside its worktree (merged into the folder), never in $HOME', async () => {
    const command = `echo inside > inside.txt && (touch ${JSON.stringify(escape)} 2>/dev/null && echo ESCAPED || echo BLOCKED)`;
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: [{ id: 'w', content: 'Write inside.txt', status: 'pending' }] })),
        reply(toolUse('delegate', { item: 'w', instructions: 'Write inside.txt with a command.' })),
        reply(toolUse('todo', { items: [{ id: 'w', content: 'Write inside.txt', status: 'completed' }] })),
        reply(text('Done.')),
      ],
      {
        tools: workspaceTools(),
        beforeOpen: (workspace) => {
          writeFileSync(join(workspace, 'README.md'), '# Project\n');
          commitFolder(workspace);
        },
        settingsFromFile: true,
        settingsFile: { sandbox: 'required' },
        server: {
          agents: [{ name: 'H', firstMessage: 'Write inside.txt with a command.', script: [reply(toolUse('bash', { command })), reply(text('Wrote it.'))] }],
        },
      },
    );
    expect((await sendTask(harness, 'write inside.txt')).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const ran = toolResults(harness.server.agent('H').requests[1]!).map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));
    expect(ran.join('\n')).toContain('BLOCKED');
    expect(existsSync(escape)).toBe(false);
    expect(readFileSync(join(harness.workspace, 'inside.txt'), 'utf8')).toBe('inside\n');
  });
});
