import { walkFiles } from '../tools/files/walk';

/**
 * Every file of the workspace that git would not ignore, as workspace-relative paths with forward
 * slashes. The one place the @-mention index touches the walker, so a faster walker (a worker
 * thread) can take its place without the index knowing. `onFile` returns false to stop the walk.
 */
export async function listWorkspaceFiles(root: string, onFile: (relative: string) => boolean | void, signal?: AbortSignal): Promise<void> {
  await walkFiles(root, root, (file) => onFile(file.relative), signal);
}
