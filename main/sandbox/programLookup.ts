// The sandbox runtime resolves the shell with `which` on every wrapped command: a spawnSync that
// blocks the helper for a few milliseconds per command. It asks `Bun.which` instead when it finds a
// `Bun` global, so the helper (a process of its own, which loads nothing else that looks for Bun)
// offers one that answers from PATH, as `which` does, and remembers what it found.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The executable file `name` names: itself when it holds a slash, else the first on `path`. */
export function findProgram(name: string, path: string | undefined): string | null {
  if (name.includes('/')) return isExecutableFile(name) ? name : null;
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const candidate = join(folder, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Gives the runtime its `which` without a process per command; the helper's PATH never changes. */
export function offerProgramLookup(env: NodeJS.ProcessEnv = process.env): void {
  const global = globalThis as { Bun?: unknown };
  if (global.Bun !== undefined) return;
  // Only what was found is remembered: a program installed while Keel runs is found next time.
  const found = new Map<string, string>();
  global.Bun = {
    which(name: string): string | null {
      const known = found.get(name);
      if (known !== undefined) return known;
      const program = findProgram(name, env.PATH);
      if (program !== null) found.set(name, program);
      return program;
    },
  };
}
