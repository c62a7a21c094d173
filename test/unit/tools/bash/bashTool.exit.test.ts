import { afterAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../../main/tools/bash';
import { makeContext, makeWorkspace } from './support';

const { workspace, remove } = makeWorkspace();
afterAll(remove);

describe('bash tool: how a command ended', () => {
  it('reports exit code 0 after the output', async () => {
    const result = await bashTool.run({ command: 'echo hello' }, makeContext(workspace));
    expect(result).toEqual({ content: 'hello\n[exit code: 0]', isError: false });
  });

  it('reports a non-zero exit code without making it a tool error', async () => {
    const result = await bashTool.run({ command: 'echo "about to fail" >&2; exit 3' }, makeContext(workspace));
    expect(result).toEqual({ content: 'about to fail\n[exit code: 3]', isError: false });
  });

  it('names the signal when the shell is killed by one', async () => {
    const result = await bashTool.run({ command: 'echo before; kill -9 $$' }, makeContext(workspace));
    expect(result).toEqual({ content: 'before\n[terminated by signal SIGKILL]', isError: false });
  });

  it('runs in the workspace with TERM set for colours', async () => {
    const result = await bashTool.run({ command: 'pwd; pwd -P; echo "$TERM"' }, makeContext(workspace));
    expect(result.content).toBe(`${workspace}\n${workspace}\nxterm-256color\n[exit code: 0]`);
  });

  it('starts each command from scratch', async () => {
    await bashTool.run({ command: 'cd /; export KEEL_TEST_VAR=1' }, makeContext(workspace));
    const result = await bashTool.run({ command: 'pwd; echo "[${KEEL_TEST_VAR:-unset}]"' }, makeContext(workspace));
    expect(result.content).toBe(`${workspace}\n[unset]\n[exit code: 0]`);
  });

  it('is an error, not a hang, when the workspace does not exist', async () => {
    const result = await bashTool.run({ command: 'echo never' }, makeContext(`${workspace}/missing`));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/could not be started: The working directory does not exist/);
  });

  it('accepts a timeout in seconds up to 600 and nothing else', () => {
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 600 }).success).toBe(true);
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 0.5 }).success).toBe(true);
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 601 }).success).toBe(false);
    expect(bashTool.inputSchema.safeParse({ command: 'ls', timeout: 0 }).success).toBe(false);
    expect(bashTool.inputSchema.safeParse({ command: '' }).success).toBe(false);
  });
});
