import type { ShellKind } from './shell';

/**
 * What the model is told about the `bash` tool, for the shell that really runs its commands.
 * The tool keeps its name everywhere (approvals and transcripts refer to it), but on Windows the
 * description says plainly that it is PowerShell and gives PowerShell's idioms: Windows
 * PowerShell 5.1 rejects `&&` and a trailing `&`, and has no grep, head, tail or nohup.
 */
export function shellToolDescription(kind: ShellKind, defaultTimeout: number, maxTimeout: number): string {
  const powershell = kind === 'pwsh' || kind === 'powershell';
  const runsIn = {
    bash: 'Runs in a fresh non-interactive `bash -c`, without profile or rc files,',
    sh: 'Runs in a fresh non-interactive `sh -c` (there is no bash on this machine), without profile or rc files,',
    pwsh: 'On this machine (Windows) it runs PowerShell 7 (`pwsh -NoProfile`), not bash: write PowerShell. It runs',
    powershell: 'On this machine (Windows) it runs Windows PowerShell 5.1 (`powershell.exe -NoProfile`), not bash: write PowerShell. It runs',
  }[kind];
  const chaining = {
    bash: 'chain steps with `&&` in one command.',
    sh: 'chain steps with `&&` in one command.',
    pwsh: 'chain steps in one command with `&&` / `||` (run the next only on success / failure) or `;`.',
    powershell: 'chain steps in one command with `;` (this version has no `&&` or `||`: write `npm ci; if ($LASTEXITCODE -eq 0) { npm test }`).',
  }[kind];
  const filtering = powershell
    ? 'filter it when you want a particular part: `npm test 2>&1 | Select-Object -Last 50`, `Select-String -Pattern error`, `Get-Content log.txt -Tail 20` (there is no grep, head or tail).'
    : 'filter with grep/head/tail when you want a particular part.';
  const background = powershell
    ? 'to leave a server running, start it as its own hidden process with its output in files, e.g. ' +
      "`Start-Process -WindowStyle Hidden npm.cmd -ArgumentList 'run','dev' -RedirectStandardOutput dev.log -RedirectStandardError dev.err.log`, " +
      'then read the files (there is no nohup or trailing `&`).'
    : 'to leave a server running, start it detached with its output in a file, e.g. `nohup npm run dev > dev.log 2>&1 &`, then read the file.';
  const exitCode = powershell
    ? '`[exit code: N]` (when the command failed, the exit code of the last program it ran, as $LASTEXITCODE; a non-zero code is reported, not treated as a failure of the tool)'
    : '`[exit code: N]` (a non-zero code is reported, not treated as a failure of the tool)';
  const encoding = powershell ? 'Text is UTF-8 throughout: output, pipes, and files written with `>`, Out-File and Set-Content. ' : '';
  return (
    `Run a shell command in the workspace folder and get its output. ${runsIn} in a pseudo-terminal whose ` +
    'working directory is the workspace. Every call starts from scratch: a `cd` or a variable does not carry over to the ' +
    `next call, so ${chaining} Nothing can be typed into the terminal: do not run commands that ` +
    'wait for input, open an editor or need a password; use non-interactive flags (`-y`, `--yes`, `--no-pager`, `CI=1`). ' +
    `stdout and stderr arrive together in print order. ${encoding}` +
    'The result is the output with colours and escape codes removed and progress-bar redraws collapsed to their last ' +
    'state; long output keeps its first and last 200 lines (about 15 KB each) with a note of how much was left out, so ' +
    `${filtering} The last line states how it ended: ${exitCode}, \`[terminated by signal NAME]\`, or a timeout. ` +
    "When Keel's sandbox is on (Linux, macOS), the command runs confined: it writes only in the workspace and $TMPDIR " +
    '(never .git/hooks, .git/config or shell rc files), secrets such as ~/.ssh read as missing, and the network reaches only ' +
    "allowed hosts; a refusal shows as the command's own error plus a [sandbox: …] note. Inside it, background jobs end " +
    'with their command, a server started inside cannot be reached from outside, and docker and ssh-agent do not work. ' +
    `The timeout is in seconds (default ${defaultTimeout}, max ${maxTimeout}): then the command and all ` +
    'its child processes are killed and the output so far is returned. The call returns when the command itself exits; ' +
    background
  );
}

/** The example in the `command` field's description. */
export function commandExample(kind: ShellKind): string {
  return kind === 'pwsh' || kind === 'powershell'
    ? 'The command line to run, in PowerShell, e.g. "npm test 2>&1 | Select-Object -Last 50" or "Get-ChildItem src; git status".'
    : 'The command line to run, e.g. "npm test 2>&1 | tail -n 50" or "ls -la src && git status".';
}
