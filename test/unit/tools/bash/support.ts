import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '../../../../main/tools/types';

/** A fresh real directory to run commands in; remove it with the returned function. */
export function makeWorkspace(): { workspace: string; remove: () => void } {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bash-')));
  return { workspace, remove: () => rmSync(workspace, { recursive: true, force: true }) };
}

export function makeContext(workspace: string, overrides: Partial<ToolContext> = {}): ToolContext & { output: string[] } {
  const output: string[] = [];
  return { workspace, signal: new AbortController().signal, onOutput: (chunk) => output.push(chunk), output, ...overrides };
}

/** A number no other process on the machine has in its command line, e.g. for `sleep 300.<n>`. */
export function uniqueMarker(): string {
  return String(Math.floor(Math.random() * 1e9)).padStart(9, '1');
}

/** Pids of live (not zombie) processes whose command line contains `marker`, from `ps`. */
export function processesWith(marker: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat, ...args]) => pid && stat && !stat.startsWith('Z') && args.join(' ').includes(marker) && !args.join(' ').startsWith('ps '))
    .map(([pid]) => pid as string);
}

/** Kills leftovers of a test by marker, so a failing test does not leave sleeps behind. */
export function killProcessesWith(marker: string): void {
  for (const pid of processesWith(marker)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
