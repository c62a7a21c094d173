import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The program and argv that run one command string. */
export interface ShellInvocation {
  file: string;
  args: string[];
  /** Shown to the model and in errors: `bash`, `sh` or `powershell`. */
  name: 'bash' | 'sh' | 'powershell';
}

/**
 * How to run `command` on this platform. POSIX: a non-login, non-interactive `bash -c` (no
 * profile or rc files, so a run is the same on every machine and quick), or `/bin/sh -c` where
 * there is no bash. Windows: PowerShell without logo or profile; the command goes in as
 * -EncodedCommand (UTF-16LE, base64) because quoting an arbitrary string through the Windows
 * command line for PowerShell's own parser is not reliably possible.
 */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform): ShellInvocation {
  if (platform === 'win32') {
    // Native programs write in the console's code page unless told otherwise; ask for UTF-8.
    const script = `[Console]::OutputEncoding = [System.Text.Encoding]::UTF8\n${command}`;
    const encoded = Buffer.from(script, 'utf16le').toString('base64');
    return { file: 'powershell.exe', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand', encoded], name: 'powershell' };
  }
  const bash = findOnPath('bash');
  if (bash) return { file: bash, args: ['-c', command], name: 'bash' };
  return { file: '/bin/sh', args: ['-c', command], name: 'sh' };
}

/**
 * An absolute path, looked up here rather than left to the child: on Linux node-pty execs in the
 * forked child, so a missing program would show only as exit code 1 and a perror line.
 */
export function findOnPath(program: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const dir of [...dirs, '/bin', '/usr/bin']) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}
