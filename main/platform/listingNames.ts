/**
 * How file names appear in a listing the model reads, one per line: a name must never look like
 * two names, or like another name.
 */

/** Files the operating system makes for itself in every folder; nobody's project content. */
const SYSTEM_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Whether a listing leaves this file out (macOS Finder's `.DS_Store`, Windows Explorer's `Thumbs.db`). */
export function isSystemFile(relativePath: string): boolean {
  return SYSTEM_FILES.has(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const ODD = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|^\s|\s$|^"/;

/**
 * The name as shown: unchanged when plain, else JSON-quoted (`"new\nline.txt"`), so a newline,
 * an escape sequence or an edge space is visible and the quoted text, read as a JSON string,
 * gives the exact name back for read_file.
 */
export function showName(relativePath: string): string {
  return ODD.test(relativePath) ? JSON.stringify(relativePath) : relativePath;
}

export function isOddName(relativePath: string): boolean {
  return ODD.test(relativePath);
}
