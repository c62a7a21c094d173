import { findProgram } from '../platform/findOnPath';

// The sandbox runtime resolves the shell with `which` on every wrapped command: a spawnSync that
// blocks the helper for a few milliseconds per command. It asks `Bun.which` instead when it finds a
// `Bun` global, so the helper (a process of its own, which loads nothing else that looks for Bun)
// offers one that answers from PATH, as `which` does, and remembers what it found.

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
