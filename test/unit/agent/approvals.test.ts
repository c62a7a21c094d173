import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../../common/approvals';
import { judgeCommand, kindOfCall, needsApproval, sessionRuleFor, type ApprovalContext, type ToolCall } from '../../../main/approvals/approvals';

// The approval parser on its own: what a command line runs and writes, in bash and in PowerShell.

const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'keel-approvals-')));
const posix: ApprovalContext = { workspace, shell: 'posix' };
const windows: ApprovalContext = { workspace: 'C:\\proj', shell: 'powershell', path: path.win32 };

const bash = (command: string): ToolCall => ({ name: 'bash', kind: 'command', input: { command } });

async function asks(command: string, rules: string[], mode: ApprovalMode = 'ask', context: ApprovalContext = posix): Promise<boolean> {
  return needsApproval(mode, bash(command), new Set(rules), await judgeCommand(command, context));
}

describe('bash: redirections are file changes', () => {
  it('a rule for echo runs plain echo, but not echo into a file (without the file-change permission)', async () => {
    expect(await asks('echo hello', ['command:echo'])).toBe(false);
    for (const command of [
      'echo owned > tracked.txt',
      'echo x >> log.txt',
      'echo x >| f',
      'echo x &> f',
      'echo x 2> err.txt',
      'echo x | tee out.txt',
      'echo x >&out.txt',
    ]) {
      expect(await asks(command, ['command:echo', 'command:tee']), command).toBe(true);
      // Auto-approve edits (or a file-change rule) allows a change inside the workspace.
      expect(await asks(command, ['command:echo', 'command:tee'], 'auto_edits'), command).toBe(false);
      expect(await asks(command, ['command:echo', 'command:tee', 'file_change']), command).toBe(false);
    }
  });

  it('descriptors and /dev/null are not files', async () => {
    for (const command of ['echo x 2>&1', 'echo x >&2', 'echo x > /dev/null 2>&1', 'echo x 2>/dev/null', 'echo x &>/dev/null', 'echo x < input.txt']) {
      expect(await asks(command, ['command:echo']), command).toBe(false);
    }
  });

  it('a write outside the workspace, or whose place the line does not tell, always asks (even in Auto-approve edits with rules)', async () => {
    const rules = ['command:echo', 'command:cat', 'command:dd', 'command:rm', 'command:cp', 'command:cd', 'command:sed', 'file_change'];
    for (const command of [
      'echo x >> ~/.bashrc',
      'echo x > /etc/passwd',
      'echo x > ../outside.txt',
      'echo x > sub/../../outside.txt',
      'echo x > "$HOME/.profile"',
      'echo x > ${OUT}',
      'echo x > {a,/tmp/b}',
      'cat > ~/.ssh/authorized_keys <<EOF\nssh-rsa AAAA\nEOF',
      'dd if=/dev/zero of=/tmp/disk bs=1 count=1',
      'rm -f /dev/null',
      'rm -rf ~',
      'rm -rf ../*',
      'rm -rf .*',
      'cp notes.txt /usr/local/bin/',
      'cd /tmp && echo x > f',
      "sed -i 's/a/b/' ~/.bashrc",
    ]) {
      expect(await asks(command, rules, 'auto_edits'), command).toBe(true);
      expect(await asks(command, rules, 'full_auto'), command).toBe(false);
    }
  });

  it('a symbolic link inside the workspace that leads out is outside', async () => {
    mkdirSync(path.join(workspace, 'real'), { recursive: true });
    symlinkSync(tmpdir(), path.join(workspace, 'escape'));
    expect(await asks('echo x > escape/owned.txt', ['command:echo'], 'auto_edits')).toBe(true);
    expect(await asks('echo x > real/fine.txt', ['command:echo'], 'auto_edits')).toBe(false);
  });

  it('a here-doc into a file is a file change; its body is data, not commands', async () => {
    const command = "cat > notes.md <<'EOF'\nrm -rf /\n$(whoami)\nEOF\necho done";
    expect(await asks(command, ['command:cat', 'command:echo'])).toBe(true);
    expect(await asks(command, ['command:cat', 'command:echo'], 'auto_edits')).toBe(false);
    expect(sessionRuleFor({ name: 'bash', kind: 'command', input: { command } })).toBe('command:cat echo');
    // An unquoted delimiter expands its body: a substitution there runs a command.
    expect(await asks('cat > notes.md <<EOF\n$(touch pwned)\nEOF', ['command:cat'], 'auto_edits')).toBe(true);
  });

  it('the program rule of rm, mv, cp… allows their changes inside the workspace', async () => {
    expect(await asks('rm -rf build dist/*.js', ['command:rm'])).toBe(false);
    expect(await asks('cp ~/template.txt docs/', ['command:cp'])).toBe(false); // reading from outside is not a write
    expect(await asks('mv ~/Downloads/x.txt .', ['command:mv'])).toBe(true); // the source is removed
  });
});

describe('bash: wrappers never match a rule of the program they wrap', () => {
  it('asks for each wrapper even when both it and the wrapped program are allowed', async () => {
    const rules = [
      'command:echo',
      'command:sudo',
      'command:env',
      'command:npx',
      'command:bash',
      'command:sh',
      'command:xargs',
      'command:find',
      'command:nohup',
      'command:time',
      'command:nice',
      'command:timeout',
      'command:command',
      'command:exec',
      'command:eval',
      'command:npm',
    ];
    for (const command of [
      'sudo echo hi',
      'env echo hi',
      'npx echo',
      'bash -c "echo hi"',
      "sh -c 'echo hi'",
      'echo a | xargs echo',
      'find . -name x -exec echo {} \\;',
      'find . -delete',
      'nohup echo hi',
      'time echo hi',
      'nice echo hi',
      'timeout 5 echo hi',
      'command echo hi',
      'exec echo hi',
      'eval echo hi',
      '/usr/bin/env echo hi',
      'npm exec echo',
      'PATH=/tmp/evil echo hi',
    ]) {
      expect(await asks(command, rules), command).toBe(true);
      expect(await asks(command, rules, 'full_auto'), command).toBe(false);
    }
    expect(await asks('find . -name "*.ts"', rules)).toBe(false);
  });

  it('keywords are not programs: a rule for "do" cannot exist, the loop body is judged', async () => {
    expect(sessionRuleFor({ name: 'bash', kind: 'command', input: { command: 'for f in *.txt; do wc -l "$f"; done' } })).toBe('command:wc');
    expect(await asks('for f in a b; do rm -rf ~; done', ['command:rm', 'command:for', 'command:do', 'command:done'])).toBe(true);
    expect(await asks('if true; then echo ok; fi', ['command:true', 'command:echo'])).toBe(false);
    expect(await asks('(echo x > ~/.profile)', ['command:echo'], 'auto_edits')).toBe(true);
  });
});

describe('PowerShell mode (injected, as on Windows)', () => {
  it('grouping, sub-expressions, script blocks, the call operator and --% cannot be judged: they ask', async () => {
    const rules = ['command:npm', 'command:echo', 'command:Write-Output', 'command:Get-ChildItem', 'command:ForEach-Object'];
    for (const command of [
      'npm test (Remove-Item -Recurse x)',
      'echo @(Remove-Item x)',
      'echo $(Remove-Item x)',
      'echo "$(Remove-Item x)"',
      'Get-ChildItem | ForEach-Object { Remove-Item $_ }',
      '& npm test',
      'npm --% test & del x',
      'echo @{a=1}',
    ]) {
      expect(await asks(command, rules, 'ask', windows), command).toBe(true);
    }
    // In bash these are plain text or grouping: judged, and allowed.
    expect(await asks('npm test --% x', ['command:npm'])).toBe(false);
  });

  it('judges plain PowerShell lines: chains, redirections, cmdlets that write, Windows paths', async () => {
    expect(await asks('npm test; npm run lint', ['command:npm'], 'ask', windows)).toBe(false);
    expect(await asks('npm test 2>&1 | Select-String fail', ['command:npm'], 'ask', windows)).toBe(true);
    expect(await asks('npm test 2>$null', ['command:npm'], 'ask', windows)).toBe(false);
    expect(await asks('npm test *>&1', ['command:npm'], 'ask', windows)).toBe(false);
    expect(await asks('npm test > log.txt', ['command:npm'], 'ask', windows)).toBe(true);
    expect(await asks('npm test > log.txt', ['command:npm'], 'auto_edits', windows)).toBe(false);
    expect(await asks('npm test *> C:\\Windows\\log.txt', ['command:npm'], 'auto_edits', windows)).toBe(true);
    expect(await asks('echo x > ..\\up.txt', ['command:echo'], 'auto_edits', windows)).toBe(true);
    expect(await asks('Set-Content -Path $env:USERPROFILE\\x.txt -Value 1', ['command:Set-Content'], 'auto_edits', windows)).toBe(true);
    expect(await asks('Remove-Item -Path:C:\\Users\\me\\x', ['command:Remove-Item'], 'ask', windows)).toBe(true);
    expect(await asks('Remove-Item build', ['command:Remove-Item'], 'ask', windows)).toBe(false);
    expect(await asks('sudo echo hi', ['command:sudo', 'command:echo'], 'ask', windows)).toBe(true);
    expect(sessionRuleFor({ name: 'bash', kind: 'command', input: { command: 'npm test; git status' } }, 'powershell')).toBe('command:npm git');
  });
});

describe('any text a model sends', () => {
  it('is judged without throwing, in both shells', async () => {
    const alphabet = [
      'a',
      'b',
      ' ',
      '\n',
      '\t',
      '"',
      "'",
      '`',
      '\\',
      '$',
      '(',
      ')',
      '{',
      '}',
      '[',
      '*',
      '?',
      '~',
      '<',
      '>',
      '&',
      '|',
      ';',
      '#',
      '=',
      '-',
      '%',
      '@',
      '/',
      '.',
      '1',
      '2',
      'EOF',
      '<<',
      'rm ',
      'sudo ',
      'cd ',
    ];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const command = Array.from({ length: 1 + Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      for (const context of [posix, windows]) {
        const judged = await judgeCommand(command, context);
        expect(typeof needsApproval('ask', bash(command), new Set(['command:rm']), judged)).toBe('boolean');
        expect(typeof sessionRuleFor({ name: 'bash', kind: 'command', input: { command } }, context.shell)).toBe('string');
      }
    }
  });
});

describe('a tool declares its kind', () => {
  it('the declared kind decides; a tool that does not say is a command, and a call to a missing MCP tool stays an MCP call', () => {
    expect(kindOfCall('read_file', { kind: 'read' })).toBe('read');
    expect(kindOfCall('anything', { kind: 'file_change' })).toBe('file_change');
    expect(kindOfCall('deploy', {})).toBe('command');
    expect(kindOfCall('deploy', undefined)).toBe('command');
    expect(kindOfCall('mcp__db__query', undefined)).toBe('mcp');
    // A read never asks; the same input under a command kind does.
    expect(needsApproval('ask', { name: 'lookup', kind: 'read', input: { command: 'rm -rf /' } }, new Set())).toBe(false);
    expect(needsApproval('ask', { name: 'lookup', kind: 'command', input: { command: 'rm -rf /' } }, new Set())).toBe(true);
  });
});
