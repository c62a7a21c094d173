import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
