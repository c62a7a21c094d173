import { realpath } from 'node:fs/promises';
import { listPaths } from '../tools/search/engine';
import { isBuildNoise } from './buildNoise';
import { MAX_INDEXED_FILES } from './indexLimits';

/** A walk of a huge folder is answered with what it found by then. */
export const MENTION_WALK_DEADLINE_MS = 120_000;

/**
 * Every file of the workspace that git would not ignore (less build noise, see buildNoise), as workspace-relative paths with forward
 * slashes, walked in a search worker thread (the same walk and .gitignore rules as list_files), so
 * a large tree never holds up the main thread. `onFile` returns false to stop the walk.
 */
export async function listWorkspaceFiles(root: string, onFile: (relative: string) => boolean | void, signal?: AbortSignal): Promise<void> {
  const walk = new AbortController();
  const stop = () => walk.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const real = await realpath(root);
    await listPaths(
      { root: real, start: real, maxPaths: MAX_INDEXED_FILES },
      {
        signal: walk.signal,
        deadlineMs: MENTION_WALK_DEADLINE_MS,
        onPaths: (paths) => {
          if (walk.signal.aborted) return;
          for (const path of paths) {
            if (isBuildNoise(path)) continue;
            if (onFile(path) === false) {
              walk.abort();
              return;
            }
          }
        },
      },
    );
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
