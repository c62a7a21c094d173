import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOnPath } from '../../platform/findOnPath';
import { powerShellRun, type PowerShellRun } from '../../platform/powershell';

/** Which shell runs the bash tool's commands: named so in its description and in errors. */
export type ShellKind = 'bash' | 'sh' | 'pwsh' | 'powershell';

/** The program and argv that run one command string. */
export interface ShellInvocation {
  file: string;
  args: string[];
  name: ShellKind;
  /** PowerShell only: a long script to write to a temp file before starting, and delete after. */
  scriptFile?: PowerShellRun['scriptFile'];
}

export interface ShellLookup {
  /** Finds a program on PATH (tests inject one). */
  findProgram?: (program: string) => string | undefined;
  /** Where a long PowerShell script goes. */
  tempScriptPath?: () => string;
}

/**
 * How to run `command` on this platform. POSIX: a non-login, non-interactive `bash -c` (no
 * profile or rc files, so a run is the same on every machine and quick), or `/bin/sh -c` where
 * there is no bash. Windows: PowerShell 7 (`pwsh`) when it is on PATH, else Windows PowerShell
 * 5.1, with a UTF-8 prelude and an exit-code epilogue (see platform/powershell).
 */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform, lookup: ShellLookup = {}): ShellInvocation {
  const find = lookup.findProgram ?? findOnPath;
  if (platform === 'win32') {
    return powerShellRun(command, {
      pwsh: find('pwsh.exe'),
      tempScriptPath: lookup.tempScriptPath ?? (() => join(tmpdir(), `keel-${randomUUID()}.ps1`)),
    });
  }
  const bash = find('bash');
  if (bash) return { file: bash, args: ['-c', command], name: 'bash' };
  return { file: '/bin/sh', args: ['-c', command], name: 'sh' };
}

/** The shell shellInvocation would pick here, for the tool's description. */
export function shellKind(platform: NodeJS.Platform = process.platform, findProgram: (program: string) => string | undefined = findOnPath): ShellKind {
  if (platform === 'win32') return findProgram('pwsh.exe') ? 'pwsh' : 'powershell';
  return findProgram('bash') ? 'bash' : 'sh';
}

/** How the shell is named to the model (the system prompt): which PowerShell matters for its syntax. */
export function shellDisplayName(kind: ShellKind = shellKind()): string {
  return { bash: 'bash', sh: 'sh', pwsh: 'PowerShell 7 (pwsh)', powershell: 'Windows PowerShell 5.1 (no && or ||)' }[kind];
}
