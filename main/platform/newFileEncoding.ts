/**
 * Whether a new file the agent creates starts with a UTF-8 byte-order mark. Windows PowerShell
 * 5.1 reads a script without one in the ANSI code page (GBK on Chinese Windows), so any
 * non-ASCII text in a new `.ps1` would be garbled when it runs. Only on Windows: elsewhere a BOM
 * would break a shebang line, and pwsh reads BOM-less UTF-8 correctly.
 */
export function newFileWantsBom(absolutePath: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' && /\.ps(m|d)?1$/i.test(absolutePath);
}
