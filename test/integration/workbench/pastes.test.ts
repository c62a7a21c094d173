import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse } from '../../support/scriptedAnthropic';
import { realTools, runTask, value } from './support';

// A long paste saved into the workspace, as the composer's "attach as a file" does: git ignores
// it, the agent still reads it by the path the message names.

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });

describe('a saved paste', () => {
  it('is ignored by git through .keel/pastes/.gitignore, and the agent reads it by the path the message names', async () => {
    const paste = 'line of a pasted log\n'.repeat(8000);
    h = await startAgentHarness([], { tools: realTools() });
    execFileSync('git', ['init', '-q'], { cwd: h.workspace });

    const { path } = value(await h.core.handlers['paste.save']({ text: paste }));
    expect(path).toMatch(/^\.keel\/pastes\/paste-\d{8}-\d{6}\.txt$/);
    expect(readFileSync(join(h.workspace, '.keel/pastes/.gitignore'), 'utf8')).toBe('*\n');
    const ignored = git(h.workspace, 'check-ignore', '-v', path);
    expect(ignored.status, ignored.stderr).toBe(0);
    expect(ignored.stdout).toContain('.keel/pastes/.gitignore');
    // Nothing of Keel's shows as a change to commit, not even the ignore file.
    expect(git(h.workspace, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('');

    h.server.push(reply(toolUse('read_file', { path })), reply(text('Read the log.')));
    expect((await runTask(h, `The log is attached as ${path}; read it.`)).outcome).toBe('done');
    const result = toolResults(h.server.requests[1]!)[0]!;
    expect(result.is_error).toBeFalsy();
    expect(toolResultText(result)).toContain('line of a pasted log');
  });

  it('never overwrites a .gitignore a person put there, and writes one again only where there is none', async () => {
    h = await startAgentHarness([], { tools: realTools() });
    execFileSync('git', ['init', '-q'], { cwd: h.workspace });
    value(await h.core.handlers['paste.save']({ text: 'first' }));
    const ignoreFile = join(h.workspace, '.keel/pastes/.gitignore');

    // The person wants their pastes tracked except logs.
    writeFileSync(ignoreFile, '*.log\n');
    const { path } = value(await h.core.handlers['paste.save']({ text: 'second' }));
    expect(readFileSync(ignoreFile, 'utf8')).toBe('*.log\n');
    expect(git(h.workspace, 'check-ignore', '-q', path).status).toBe(1);

    unlinkSync(ignoreFile);
    value(await h.core.handlers['paste.save']({ text: 'third' }));
    expect(readFileSync(ignoreFile, 'utf8')).toBe('*\n');
  });
});
