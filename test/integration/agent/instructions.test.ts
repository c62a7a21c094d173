import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INSTRUCTIONS_CAP } from '../../../main/agent/instructions';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, systemText, text } from '../../support/scriptedAnthropic';
import { sendTask } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('project instructions (AGENTS.md, CLAUDE.md)', () => {
  it('gives the model AGENTS.md, CLAUDE.md and the user-level AGENTS.md, and caps a 1.5 MB file to its share with a line saying where the rest is', async () => {
    harness = await startAgentHarness([reply(text('ok')), reply(text('ok again'))]);
    const huge = `# Rules\nUse tabs.\n${'x'.repeat(1_500_000)}\nTHE END OF AGENTS.md`;
    writeFileSync(join(harness.workspace, 'AGENTS.md'), huge);
    writeFileSync(join(harness.workspace, 'CLAUDE.md'), 'Prefer small commits.\n');
    writeFileSync(join(harness.dataDir, 'AGENTS.md'), 'Answer in British English.\n');

    expect((await sendTask(harness, 'hello')).outcome).toBe('done');
    const system = systemText(harness.server.requests[0]!);
    expect(system).toContain('Answer in British English.');
    expect(system).toContain('Use tabs.');
    expect(system).not.toContain('THE END OF AGENTS.md');
    // The huge file takes what the two small ones leave, and no more: CLAUDE.md still reaches the model whole.
    expect(system).toContain('Prefer small commits.');
    const shown = INSTRUCTIONS_CAP - 'Answer in British English.\n'.length - 'Prefer small commits.\n'.length;
    expect(system).toContain(
      `Cut here: Keel gives the model at most 40,000 characters of instruction files in all, shared between the 3 files, and AGENTS.md (1.4 MB) did not fit in its ${shown.toLocaleString('en')}. ` +
        `The rest is in ${join(harness.workspace, 'AGENTS.md')}, from line 3; read it with read_file (offset 3) where it matters.]`,
    );
    expect(system).toContain(`<instructions file="CLAUDE.md" applies-to="this workspace">\nPrefer small commits.\n\n</instructions>`);
    expect(system.length).toBeLessThan(INSTRUCTIONS_CAP + 6_000);

    const status = await harness.core.handlers['agent.status']({});
    expect(status.ok).toBe(true);
    const files = status.ok ? (status.value.instructionFiles ?? []) : [];
    expect(files.map((f) => [f.path.split('/').pop(), f.scope, f.truncated])).toEqual([
      ['AGENTS.md', 'user', false],
      ['AGENTS.md', 'workspace', true],
      ['CLAUDE.md', 'workspace', false],
    ]);

    // Read at the start of each task: an edit applies to the next one.
    writeFileSync(join(harness.workspace, 'AGENTS.md'), 'Use spaces.\n');
    expect((await sendTask(harness, 'again')).outcome).toBe('done');
    const second = systemText(harness.server.requests[1]!);
    expect(second).toContain('Use spaces.');
    expect(second).toContain('Prefer small commits.');
    expect(second).not.toContain('Cut here');
  });

  it('gives two huge files an equal share each, both named to the model and both cut', async () => {
    harness = await startAgentHarness([reply(text('ok'))]);
    writeFileSync(join(harness.workspace, 'AGENTS.md'), `agents rules\n${'a'.repeat(1_500_000)}`);
    writeFileSync(join(harness.workspace, 'CLAUDE.md'), `claude rules\n${'c'.repeat(100_000)}`);
    expect((await sendTask(harness, 'hello')).outcome).toBe('done');
    const system = systemText(harness.server.requests[0]!);
    expect(system).toContain('agents rules');
    expect(system).toContain('claude rules');
    expect(system).toContain('and AGENTS.md (1.4 MB) did not fit in its 20,000.');
    expect(system).toContain('and CLAUDE.md (98 KB) did not fit in its 20,000.');
    expect(system).toContain(`a${'a'.repeat(19_999 - 'agents rules\n'.length)}\n[Cut here`);
  });
});
