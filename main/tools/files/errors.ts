import type { ToolResult } from '../types';

export function failure(content: string): ToolResult {
  return { content, isError: true };
}

export function success(content: string): ToolResult {
  return { content, isError: false };
}

/**
 * Turns a thrown file-system error into a sentence that says what failed, for which path and what
 * to do, instead of a bare errno a model would retry blindly.
 */
export function describeFsError(
  error: unknown,
  displayPath: string,
  action: string,
  signal?: AbortSignal,
  platform: NodeJS.Platform = process.platform,
): string {
  // A cancel may carry any reason; what matters is that the person stopped the task.
  if (signal?.aborted || isAbort(error)) return `Stopped: the task was cancelled while ${action} "${displayPath}".`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if ((error as { inUse?: boolean } | undefined)?.inUse === true) {
    return (
      `"${displayPath}" is in use by another program (an editor, an antivirus scan, the search indexer or OneDrive may hold it open), ` +
      `so ${action} it failed after several tries and it was left unchanged. Ask the person to close it, or try again in a moment.`
    );
  }
  switch (code) {
    case 'ENOENT':
      return `"${displayPath}" does not exist. Check the path (list_files shows what is there).`;
    case 'ENOTDIR':
      return `A part of "${displayPath}" is a file, not a folder. Check the path (list_files shows what is there).`;
    case 'EEXIST':
      return `A part of "${displayPath}" already exists as a file, so it cannot be a folder. Check the path (list_files shows what is there).`;
    case 'EISDIR':
      return `"${displayPath}" is a folder, not a file. Use list_files to see what is inside it.`;
    case 'EACCES':
    case 'EPERM':
      // Windows says EPERM for a file another program holds open far more often than for permissions.
      if (platform === 'win32') {
        return `Windows refused ${action} "${displayPath}": another program may have it open (an editor, an antivirus scan, OneDrive), or it is read-only. Ask the person to close it or clear its read-only flag, then try again.`;
      }
      return `Permission denied while ${action} "${displayPath}". The person may need to change the file's permissions.`;
    case 'ENOSPC':
      return `The disk is full while ${action} "${displayPath}"; nothing was changed. Free some space and try again.`;
    case 'EROFS':
      return `"${displayPath}" is on a read-only file system and cannot be changed.`;
    case 'ENAMETOOLONG':
      return `The path "${displayPath}" is too long for the file system. Use a shorter name.`;
    case 'EBUSY':
      return `"${displayPath}" is in use by another program (locked). Try again once it is closed.`;
    default: {
      const detail = error instanceof Error ? error.message : String(error);
      return `Failed while ${action} "${displayPath}": ${detail}`;
    }
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
