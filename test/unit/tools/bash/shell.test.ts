import { describe, expect, it } from 'vitest';
import { shellInvocation } from '../../../../main/tools/bash/shell';
import { parseProcStat } from '../../../../main/platform/processTree';

describe('shellInvocation', () => {
  it('runs a non-login bash -c by absolute path on POSIX', () => {
    const { file, args, name } = shellInvocation('echo hi', 'linux');
    expect(name).toBe('bash');
    expect(file).toMatch(/^\/.*\/bash$/);
    expect(args).toEqual(['-c', 'echo hi']);
  });

  it('hands PowerShell the command as an encoded command that round-trips any quoting', () => {
    const command = `Write-Output "it's \\"quoted\\"" 'and $not expanded'`;
    const { file, args } = shellInvocation(command, 'win32', { findProgram: () => undefined });
    expect(file).toBe('powershell.exe');
    expect(args.slice(0, 3)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive']);
    expect(args.at(-2)).toBe('-EncodedCommand');
    const script = Buffer.from(args.at(-1) ?? '', 'base64').toString('utf16le');
    expect(script).toContain(`\n${command}\n`);
  });
});

describe('parseProcStat', () => {
  it('reads parent, group and session after a command name with spaces and parentheses', () => {
    const stat = '4242 (my (odd) name) S 4200 4242 4242 34816 4242 4194560 0 0 0 0';
    expect(parseProcStat(stat)).toEqual({ pid: 4242, ppid: 4200, pgid: 4242, sid: 4242 });
  });

  it('leaves zombies out', () => {
    expect(parseProcStat('77 (sleep) Z 1 70 70 0 -1 0')).toBeUndefined();
  });
});
