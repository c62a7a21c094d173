import { requiredAsciiLiterals, requiredLiterals } from './literals';

/**
 * Finds where a line that may match can be, in a file's raw bytes, before anything is decoded or
 * a regex is run. A miss means no line matches when the file is UTF-8, and, when `asciiSound`, in
 * every ASCII-compatible encoding too (GBK, Shift_JIS, Windows-125x: ASCII is one byte in each).
 */
export interface Prefilter {
  asciiSound: boolean;
  /** For one file's bytes: the offset of the next possible match at or after `from`, or -1. */
  begin(bytes: Buffer): (from: number) => number;
}

export function makePrefilter(pattern: string, ignoreCase: boolean): Prefilter | null {
  if (!ignoreCase) {
    const literals = requiredLiterals(pattern);
    if (!literals) return null;
    const needles = literals.map((literal) => Buffer.from(literal, 'utf8'));
    const asciiSound = needles.every((needle) => needle.every((byte) => byte < 0x80));
    return {
      asciiSound,
      begin: (bytes) => (from) => {
        let best = -1;
        for (const needle of needles) {
          const at = bytes.indexOf(needle, from);
          if (at !== -1 && (best === -1 || at < best)) best = at;
        }
        return best;
      },
    };
  }
  const literals = requiredAsciiLiterals(pattern);
  if (!literals) return null;
  // Matched against the bytes read as Latin-1 (one character per byte). With the `u` flag, `ſ` and
  // the Kelvin sign `K` fold to s and k: their UTF-8 bytes are accepted for those letters.
  const source = literals.map((literal) => [...literal].map(caseless).join('')).join('|');
  const finder = new RegExp(source, 'gi');
  return {
    asciiSound: false,
    begin: (bytes) => {
      const text = bytes.toString('latin1');
      return (from) => {
        finder.lastIndex = from;
        return finder.exec(text)?.index ?? -1;
      };
    },
  };
}

function caseless(char: string): string {
  if (char === 's' || char === 'S') return '(?:s|\\xC5\\xBF)';
  if (char === 'k' || char === 'K') return '(?:k|\\xE2\\x84\\xAA)';
  return char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
