/**
 * How a command the model wrote runs in PowerShell on Windows: the script around it, and the
 * command line that starts it. Pure functions of their inputs, so tests read the script here.
 */

/** `pwsh` is PowerShell 7 (preferred: UTF-8 by default, `&&` and `||`); `powershell` is Windows PowerShell 5.1. */
export type PowerShellName = 'pwsh' | 'powershell';

/**
 * Past this many characters the script goes through a temp `.ps1` and `-File`: -EncodedCommand
 * is UTF-16LE in base64 (about 2.7 characters per character of script), and Windows limits a
 * command line to 32,767 characters, which a 12k-character script would pass.
 */
export const MAX_ENCODED_SCRIPT_CHARS = 8000;

/**
 * Makes the session UTF-8 throughout. Windows PowerShell 5.1 otherwise writes `>` and Out-File
 * as UTF-16LE, Set-Content in the ANSI code page (GBK on Chinese Windows), reads BOM-less UTF-8
 * with Get-Content as ANSI, and pipes text to programs as ASCII ($OutputEncoding); programs print
 * in the console's code page unless [Console]::OutputEncoding says otherwise. pwsh 7 defaults to
 * UTF-8 already; the same lines do no harm there. In 5.1 `utf8` writes a BOM: the only UTF-8
 * those cmdlets know. Python reads and writes UTF-8 with PYTHONUTF8.
 */
export const POWERSHELL_PRELUDE = [
  '$OutputEncoding = [System.Text.UTF8Encoding]::new($false)',
  // Throws without a console (never in a pty, but the rest of the script must still run).
  'try { [Console]::OutputEncoding = $OutputEncoding; [Console]::InputEncoding = $OutputEncoding } catch { }',
  "$PSDefaultParameterValues['Out-File:Encoding'] = 'utf8'",
  "$PSDefaultParameterValues['Set-Content:Encoding'] = 'utf8'",
  "$PSDefaultParameterValues['Add-Content:Encoding'] = 'utf8'",
  "$PSDefaultParameterValues['Get-Content:Encoding'] = 'utf8'",
  "$env:PYTHONUTF8 = '1'",
].join('\n');

/**
 * Gives the process the exit code a person expects. PowerShell's own exit code says only whether
 * the last statement succeeded (so `npm test` exiting 2 would arrive as 1). When the last
 * statement failed and a native program set $LASTEXITCODE, that code is the exit code; a failed
 * cmdlet is 1; success is 0. A native program that exited 0 but wrote to a redirected stderr
 * (`git push 2>&1`, which 5.1 counts as a failure) exits 0, as it did. `exit N` in the command
 * still ends the script first with its own N.
 */
export const POWERSHELL_EPILOGUE = [
  '$__keelSucceeded = $?',
  'if ($__keelSucceeded) { exit 0 }',
  'if ($LASTEXITCODE -is [int]) { exit $LASTEXITCODE }',
  'exit 1',
].join('\n');

/** The whole script: prelude, the command as written, epilogue. */
export function powerShellScript(command: string): string {
  // The command's own last line may be a comment: the epilogue starts on a line of its own.
  return `${POWERSHELL_PRELUDE}\n${command}\n${POWERSHELL_EPILOGUE}\n`;
}

export interface PowerShellRun {
  file: string;
  args: string[];
  name: PowerShellName;
  /** A script too long for the command line: write these bytes to `path` before starting, delete it after. */
  scriptFile?: { path: string; bytes: Buffer };
}

export interface PowerShellChoice {
  /** Absolute path of pwsh.exe when it is on PATH; Windows PowerShell otherwise. */
  pwsh?: string;
  /** Where a long script is written (a fresh name in the temp folder). */
  tempScriptPath: () => string;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The command line for one command: no logo, no profile (a run must not depend on the person's
 * profile, and loading it is slow), non-interactive, and a process-only execution-policy bypass:
 * the default policy on Windows clients refuses every script file, and `npm`, `npx` and `yarn`
 * resolve to `.ps1` shims in PowerShell (a policy set by Group Policy still wins). The script goes
 * in as -EncodedCommand because quoting an arbitrary string through the Windows command line for
 * PowerShell's own parser is not reliably possible; a long one as a `.ps1` with a UTF-8 BOM
 * (without one, Windows PowerShell 5.1 reads the file in the ANSI code page) run with -File.
 */
export function powerShellRun(command: string, choice: PowerShellChoice): PowerShellRun {
  const name: PowerShellName = choice.pwsh ? 'pwsh' : 'powershell';
  const file = choice.pwsh ?? 'powershell.exe';
  const common = ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass'];
  const script = powerShellScript(command);
  if (script.length <= MAX_ENCODED_SCRIPT_CHARS) {
    return { file, name, args: [...common, '-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')] };
  }
  const path = choice.tempScriptPath();
  return {
    file,
    name,
    args: [...common, '-File', path],
    scriptFile: { path, bytes: Buffer.concat([UTF8_BOM, Buffer.from(script, 'utf8')]) },
  };
}
