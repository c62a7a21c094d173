import type { IPty } from 'node-pty';

/** Closes a pty whose process never reported its exit, so its file descriptor is freed. */
export function destroyQuietly(pty: IPty): void {
  try {
    (pty as IPty & { destroy?: () => void }).destroy?.();
  } catch {
    // already closed
  }
}
