import type { IPty } from 'node-pty';

/** Closes a pty whose process never reported its exit, so its file descriptor is freed. */
export function destroyQuietly(pty: IPty): void {
  try {
    (pty as IPty & { destroy?: () => void }).destroy?.();
  } catch {
    // already closed
  }
}

/** Kills a pty's process; one that is already gone is not an error. */
export function killQuietly(pty: IPty): void {
  try {
    pty.kill();
  } catch {
    // already gone
  }
}
