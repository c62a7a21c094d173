import { walkFiles } from '../tools/files/walk';

/**
 * Every file of the workspace that git would not ignore, as workspace-relative paths with forward
 * slashes. The one place the @-mention index touches the walker, so a faster walker (a worker
 * thread) can take its place without the index knowing.
 */
export async function listWorkspaceFiles(root: string, onFile: (relative: string) => void, signal?: AbortSignal): Promise<void> {
  await walkFiles(root, root, (file) => onFile(file.relative), signal);
}
