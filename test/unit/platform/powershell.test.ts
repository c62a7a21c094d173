import { describe, expect, it } from 'vitest';
import { MAX_ENCODED_SCRIPT_CHARS, powerShellScript } from '../../../main/platform/powershell';
import { shellToolDescription } from '../../../main/tools/bash/bashDescription';
import { shellInvocation, shellKind } from '../../../main/tools/bash/shell';

const PWSH = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
const withPwsh = { findProgram: (p: string) => (p === 'pwsh.exe' ? PWSH : undefined), tempScriptPath: () => 'C:\\Temp\\keel-1.ps1' };
const without = { findProgram: () => undefined, tempScriptPath: () => 'C:\\Temp\\keel-1.ps1' };

function decoded(args: string[]): string {
  expect(args.at(-2)).toBe('-EncodedCommand');
  return Buffer.from(args.at(-1) ?? '', 'base64').toString('utf16le');
}

describe('the PowerShell script (15.1, 15.11)', () => {
  const script = powerShellScript('npm test');

  it('sets every default encoding to UTF-8 and PYTHONUTF8, before the command', () => {
    const before = script.slice(0, script.indexOf('npm test'));
    expect(before).toContain('$OutputEncoding = [System.Text.UTF8Encoding]::new($false)');
    expect(before).toContain('[Console]::OutputEncoding = $OutputEncoding');
    expect(before).toContain('[Console]::InputEncoding = $OutputEncoding');
    for (const cmdlet of ['Out-File', 'Set-Content', 'Add-Content', 'Get-Content']) {
      expect(before).toContain(`$PSDefaultParameterValues['${cmdlet}:Encoding'] = 'utf8'`);
    }
    expect(before).toContain("$env:PYTHONUTF8 = '1'");
  });

  it('ends by exiting with $LASTEXITCODE when the last statement failed, so `npm test` exiting 2 is 2', () => {
    const after = script.slice(script.indexOf('npm test') + 'npm test'.length);
    const lines = after.trim().split('\n');
    expect(lines[0]).toBe('$__keelSucceeded = $?');
    expect(lines).toContain('if ($__keelSucceeded) { exit 0 }');
    expect(lines).toContain('if ($LASTEXITCODE -is [int]) { exit $LASTEXITCODE }');
    expect(lines.at(-1)).toBe('exit 1');
  });

  it('starts the epilogue on its own line, so a trailing comment in the command cannot swallow it', () => {
    expect(powerShellScript('git status # check')).toContain('git status # check\n$__keelSucceeded = $?');
  });
});

describe('the PowerShell command line (15.2, 15.14)', () => {
  it('prefers pwsh when it is on PATH, else Windows PowerShell', () => {
    expect(shellInvocation('echo hi', 'win32', withPwsh)).toMatchObject({ file: PWSH, name: 'pwsh' });
    expect(shellInvocation('echo hi', 'win32', without)).toMatchObject({ file: 'powershell.exe', name: 'powershell' });
    expect(shellKind('win32', withPwsh.findProgram)).toBe('pwsh');
    expect(shellKind('win32', without.findProgram)).toBe('powershell');
  });

  it('passes a short script as -EncodedCommand, which round-trips any quoting', () => {
    const command = `Write-Output "it's \\"quoted\\"" 'and $not expanded' 你好`;
    const run = shellInvocation(command, 'win32', without);
    // Bypass for this process only: npm, npx and yarn are .ps1 shims in PowerShell.
    expect(run.args.slice(0, 5)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass']);
    expect(decoded(run.args)).toBe(powerShellScript(command));
    expect(run.scriptFile).toBeUndefined();
  });

  it('sends a long script through a temp .ps1 with a UTF-8 BOM and -File, staying under the 32,767-character command line', () => {
    const command = `Write-Output '${'界'.repeat(12_000)}'`;
    const run = shellInvocation(command, 'win32', withPwsh);
    expect(run.args).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', 'C:\\Temp\\keel-1.ps1']);
    const bytes = run.scriptFile?.bytes ?? Buffer.alloc(0);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe(powerShellScript(command));
    // The longest script still sent inline fits a Windows command line with room to spare.
    const longestInline = shellInvocation('x'.repeat(MAX_ENCODED_SCRIPT_CHARS - powerShellScript('').length), 'win32', withPwsh);
    expect(longestInline.scriptFile).toBeUndefined();
    expect([longestInline.file, ...longestInline.args].join(' ').length).toBeLessThan(32_767);
  });
});

describe('the bash tool’s description names the real shell (15.2)', () => {
  it('on Windows PowerShell 5.1: PowerShell idioms, no &&, no nohup/tail', () => {
    const text = shellToolDescription('powershell', 120, 600);
    expect(text).toMatch(/Windows PowerShell 5\.1/);
    expect(text).toMatch(/not bash: write PowerShell/);
    expect(text).toMatch(/has no `&&` or `\|\|`/);
    expect(text).toContain('Select-Object -Last 50');
    expect(text).toContain('Start-Process');
    expect(text).not.toMatch(/nohup npm|grep\/head\/tail|chain steps with `&&`/);
  });

  it('on pwsh: && is allowed; on Linux and macOS: bash as before', () => {
    expect(shellToolDescription('pwsh', 120, 600)).toMatch(/PowerShell 7.*`&&` \/ `\|\|`/s);
    const bash = shellToolDescription('bash', 120, 600);
    expect(bash).toMatch(/`bash -c`/);
    expect(bash).toContain('nohup npm run dev');
    expect(bash).not.toMatch(/PowerShell/);
  });
});
