import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../../main/cli';

// `keel`'s answers to its arguments, in this process: a usage error is found before the core loads.

const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function keel(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('keel arguments', () => {
  it('--help prints the usage and exits 0', async () => {
    const result = await keel('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(result.stdout).toContain('keel web [--workspace DIR] [--port N]');
    expect(result.stderr).toBe('');
  });

  it.each([
    ['web', '--help'],
    ['run', '--help'],
    ['run', '--workspace', '.', '-h'],
    ['web', '-h'],
  ])('keel %s %s asks for the usage: printed, exit 0, nothing started', async (...args) => {
    const result = await keel(...args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('keel run [--workspace DIR]');
    expect(result.stderr).toBe('');
  });

  it('a task that mentions --help after -- is a task, not a question', async () => {
    const result = await keel('run', '--frobnicate', '--', '--help');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown option "--frobnicate"');
  });

  it('--version prints the version and exits 0', async () => {
    const result = await keel('--version');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('an unknown command exits 2 with the usage on stderr', async () => {
    const result = await keel('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "frobnicate"');
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('no command exits 2 with the usage on stderr', async () => {
    const result = await keel();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No command given');
    expect(result.stderr).toContain('Usage:');
  });

  it.for<[string[], string]>([
    [['--port', 'abc'], '--port must be a number from 0 to 65535, not "abc"'],
    [['--port', '70000'], 'not "70000"'],
    [['--port', '-1'], 'not "-1"'],
    [['--port', ''], 'not ""'],
    [['--port', '0x50'], 'not "0x50"'],
    [['--port', '1e3'], 'not "1e3"'],
    [['--port'], '--port needs a value'],
    [['--workspace'], '--workspace needs a value'],
    [['--workspace', '--port', '0'], '--workspace needs a value'],
    [['--verbose'], 'Unknown option "--verbose"'],
  ])('web %j exits 2 with a usage error', async ([args, message]) => {
    const result = await keel('web', ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('run with no task exits 2 and says how to give one', async () => {
    const result = await keel('run', '--json');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Give the task to run');
    expect(result.stdout).toBe('');
  });
});
