/**
 * Lexical checks on a path the model gives, made before any file-system call: what they refuse
 * must never reach the operating system, because on Windows merely opening some paths does
 * something (a UNC path connects to a host over SMB and offers the person's NTLM hash to it;
 * `con` reads the console; `nul` swallows a write while the tool reports success).
 */

export interface PathRuleOptions {
  platform?: NodeJS.Platform;
  /** The path is to be created or written: names that would be ambiguous in a listing are refused too. */
  writing?: boolean;
}

/** `\\host\share`, `//host/share`, `\\?\C:\x`, `\\.\pipe\x`, `\??\C:\x`: with either slash. */
const UNC_OR_DEVICE = /^[\\/]{2}|^[\\/]\?\?[\\/]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** Device names Windows resolves in every folder, with or without an extension (`con.txt`). */
const RESERVED_WINDOWS_NAME = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9¹²³])$/i;
/** Characters NTFS does not allow in a name (`:` is handled apart, for the drive letter and streams). */
const INVALID_WINDOWS_CHARACTER = /[<>"|?*]/;

/** Why `userPath` is refused, as a sentence for the model; undefined when it may be used. */
export function pathProblem(userPath: string, options: PathRuleOptions = {}): string | undefined {
  const platform = options.platform ?? process.platform;
  const shown = JSON.stringify(userPath);
  if (UNC_OR_DEVICE.test(userPath)) {
    return (
      `The path ${shown} is a network (UNC) or device path, which is never opened: on Windows that alone would connect ` +
      'to another machine. Give a path relative to the workspace, like "src/index.ts".'
    );
  }
  const control = CONTROL_CHARACTER.exec(userPath);
  if (control && (options.writing || platform === 'win32' || control[0] === '\0')) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return (
      `The path ${shown} contains a control character (${code}, such as a newline or tab). ` +
      'A name with one would be ambiguous in listings; use a plain name without control characters.'
    );
  }
  if (platform === 'win32') return windowsProblem(userPath, shown);
  return undefined;
}

function windowsProblem(userPath: string, shown: string): string | undefined {
  // `C:` at the start is a drive; a `:` anywhere else names an NTFS alternate data stream.
  const colon = userPath.indexOf(':', /^[a-zA-Z]:/.test(userPath) ? 2 : 0);
  if (colon !== -1) {
    return `The path ${shown} contains ":" after the drive letter, which on Windows names a hidden data stream of a file. Use a name without ":".`;
  }
  const invalid = INVALID_WINDOWS_CHARACTER.exec(userPath);
  if (invalid) return `The path ${shown} contains "${invalid[0]}", which Windows does not allow in file names. Use a name without it.`;
  for (const segment of userPath.split(/[\\/]/)) {
    if (segment === '' || segment === '.' || segment === '..') continue;
    if (/[. ]$/.test(segment)) {
      return `The name "${segment}" in ${shown} ends with a dot or a space, which Windows silently drops (so another file would be meant). Remove the trailing dot or space.`;
    }
    const stem = segment.split('.')[0]?.trimEnd() ?? '';
    if (RESERVED_WINDOWS_NAME.test(stem)) {
      return `The name "${segment}" in ${shown} is reserved by Windows for a device (like CON, NUL, COM1), so it cannot be an ordinary file. Choose another name.`;
    }
  }
  return undefined;
}
