import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

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

/**
 * The executable file `name` names: itself when it holds a slash, else the first on `path`, as
 * `which` finds it (absolute folders only, regular files only). Stricter than findOnPath, which
 * also tries /bin and /usr/bin; the sandbox's `which` and ripgrep's lookup use this one.
 */
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
