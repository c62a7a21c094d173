import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';

/** One live process, as far as killing a run's tree needs to know it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id; on systems without /proc it is not known and equals pgid. */
  sid: number;
}

/**
 * Every process of a run still alive: the root's descendants (by parent links, which catch
 * children that moved to their own group or session while the root still lives), its process
 * group and session (which catch orphans whose parent already died), and on Linux every process
 * whose environment carries the run's marker (which also catches a `setsid` daemon orphaned by
 * a double fork). Zombies are left out: they are dead and only wait to be reaped.
 *
 * `known` are pids found earlier for this run; their descendants count too, so the tree can be
 * followed after the root itself is gone. The calling process is never included.
 */
export async function findRunProcesses(
  rootPid: number,
  options: { marker?: string; known?: Iterable<number>; includeRootDescendants?: boolean } = {},
): Promise<number[]> {
  const processes = await listProcesses();
  const alive = new Set(processes.map((p) => p.pid));
  const found = new Set<number>();
  for (const p of processes) {
    if (p.pgid === rootPid || p.sid === rootPid) found.add(p.pid);
  }
  const roots = [...(options.known ?? [])].filter((pid) => alive.has(pid));
  if (options.includeRootDescendants !== false && alive.has(rootPid)) roots.push(rootPid);
  const children = new Map<number, number[]>();
  for (const p of processes) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const visited = new Set<number>();
  const queue = [...roots];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    if (visited.has(pid)) continue;
    visited.add(pid);
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  if (options.marker && process.platform === 'linux') {
    for (const pid of await pidsWithEnvironmentEntry(options.marker, processes)) found.add(pid);
  }
  found.delete(process.pid);
  found.delete(0);
  found.delete(1);
  return [...found];
}

/** Live (non-zombie) processes: from /proc on Linux, from `ps` elsewhere. */
export async function listProcesses(): Promise<ProcessEntry[]> {
  return process.platform === 'linux' ? listFromProc() : listFromPs();
}

async function listFromProc(): Promise<ProcessEntry[]> {
  const names = await readdir('/proc');
  const entries = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        try {
          return parseProcStat(await readFile(`/proc/${name}/stat`, 'utf8'));
        } catch {
          return undefined; // it ended between readdir and read
        }
      }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** `pid (comm) state ppid pgrp session …`; comm may hold spaces and parentheses, so parse after the last `)`. */
export function parseProcStat(stat: string): ProcessEntry | undefined {
  const close = stat.lastIndexOf(')');
  const pid = Number.parseInt(stat, 10);
  const fields = stat.slice(close + 2).split(' ');
  const [state, ppid, pgid, sid] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  if (close === -1 || !Number.isInteger(pid) || state === 'Z' || state === 'X') return undefined;
  return { pid, ppid, pgid, sid };
}

function listFromPs(): Promise<ProcessEntry[]> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        resolve([]);
        return;
      }
      const entries: ProcessEntry[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, ppid, pgid, stat] = line.trim().split(/\s+/);
        if (!pid || !ppid || !pgid || !stat || stat.startsWith('Z')) continue;
        entries.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), sid: Number(pgid) });
      }
      resolve(entries);
    });
  });
}

async function pidsWithEnvironmentEntry(entry: string, processes: ProcessEntry[]): Promise<number[]> {
  const needle = Buffer.from(`\0${entry}\0`);
  const matches = await Promise.all(
    processes.map(async ({ pid }) => {
      try {
        // Prefix with NUL so the first variable matches the same way as every other one.
        const environ = Buffer.concat([Buffer.from([0]), await readFile(`/proc/${pid}/environ`)]);
        return environ.includes(needle) ? pid : undefined;
      } catch {
        return undefined; // another user's process, or already gone
      }
    }),
  );
  return matches.filter((pid): pid is number => pid !== undefined);
}
