import { isUtf8 } from 'node:buffer';
import type * as Chardet from 'chardet';
import type Iconv from 'iconv-lite';
import { cjkCandidates } from './cjkEncoding';
import { lazyPackage } from './lazyPackage';

// Loaded on first use: a search worker needs them only for a file that is not UTF-8.
const chardet = lazyPackage<typeof Chardet>('chardet');
const iconv = lazyPackage<typeof Iconv>('iconv-lite');

/** How a text file's bytes map to characters, so a read can decode it and a write can keep it. */
export interface TextEncoding {
  /** 'utf8', 'utf16le', 'utf16be', or an iconv-lite name for a legacy encoding. */
  name: string;
  /** Whether the file starts with a byte order mark (kept on write). */
  bom: boolean;
  /** How a person names it, for headers and messages. */
  label: string;
  /**
   * Whether a 0x0A byte is always a line feed and never part of another character, so lines can
   * be found by scanning bytes without decoding. True for UTF-8 and every ASCII-compatible legacy
   * encoding (their multi-byte trail bytes are all >= 0x30); false for UTF-16.
   */
  byteLines: boolean;
}

export type Sniffed = { kind: 'text'; encoding: TextEncoding } | { kind: 'binary'; reason: string };

/** Enough for chardet to be confident, small enough to read on every call. */
export const SAMPLE_BYTES = 64 * 1024;

export const UTF8: TextEncoding = { name: 'utf8', bom: false, label: 'UTF-8', byteLines: true };
const UTF8_BOM: TextEncoding = { name: 'utf8', bom: true, label: 'UTF-8 with BOM', byteLines: true };
const UTF16LE: TextEncoding = { name: 'utf16le', bom: true, label: 'UTF-16LE with BOM', byteLines: false };
const UTF16BE: TextEncoding = { name: 'utf16be', bom: true, label: 'UTF-16BE with BOM', byteLines: false };

/** Control bytes that do not occur in text (tab, newlines, form feed and ESC for ANSI colours do). */
function isControlByte(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0b && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) || byte === 0x7f;
}

/** isControlByte as a table: sniffing runs on every file a search reads, and an indexed table lookup is ~10× a for-of. */
const CONTROL_BYTES = Uint8Array.from({ length: 256 }, (_, byte) => (isControlByte(byte) ? 1 : 0));

/** Share of control bytes above which a file is treated as binary rather than odd text. */
const MAX_CONTROL_SHARE = 0.05;

/**
 * Decides what a file is from its first bytes (`complete` when the buffer is the whole file, so a
 * multi-byte character cut at the end of a sample is not mistaken for invalid UTF-8).
 */
export function sniff(bytes: Buffer, complete: boolean): Sniffed {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { kind: 'text', encoding: UTF8_BOM };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { kind: 'text', encoding: UTF16LE };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { kind: 'text', encoding: UTF16BE };
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (sample.length === 0) return { kind: 'text', encoding: UTF8 };
  if (sample.includes(0)) {
    return { kind: 'binary', reason: 'it contains NUL bytes' };
  }
  let controls = 0;
  for (let i = 0; i < sample.length; i++) controls += CONTROL_BYTES[sample[i] as number] as number;
  if (controls / sample.length > MAX_CONTROL_SHARE) {
    return { kind: 'binary', reason: 'most of it is not text' };
  }
  if (isUtf8Sample(bytes, complete)) return { kind: 'text', encoding: UTF8 };
  return { kind: 'text', encoding: legacyEncoding(sample, complete) };
}

/**
 * A CJK double-byte encoding that reads the bytes as everyday CJK text (see cjkEncoding), else the
 * encoding chardet ranks highest among those iconv-lite can both decode and encode.
 */
function legacyEncoding(sample: Buffer, complete: boolean): TextEncoding {
  const matches = chardet().analyse(sample);
  const confidence = (name: string) => matches.find((m) => m.name === name)?.confidence ?? 0;
  const cjk = cjkCandidates(sample, complete, confidence)[0];
  if (cjk) return { name: cjk.name, bom: false, label: cjk.name, byteLines: true };
  for (const match of matches) {
    const name = match.name;
    // Not valid UTF-8 already, and without NULs it is not UTF-16/32; ISO-2022 is not in iconv-lite.
    if (/^(UTF|ASCII|ISO-2022|ISO_2022|mbcs|sbcs)/i.test(name)) continue;
    // Files labelled Latin-1 are almost always Windows-1252 (browsers decode them so too): it adds € “ ” – and friends.
    const iconvName = name === 'ISO-8859-1' ? 'windows-1252' : name;
    if (iconv().encodingExists(iconvName)) {
      return { name: iconvName, bom: false, label: iconvName === 'windows-1252' ? 'Windows-1252' : name, byteLines: true };
    }
  }
  // Every byte decodes in Windows-1252, so an unrecognised 8-bit text is still readable.
  return { name: 'windows-1252', bom: false, label: 'Windows-1252', byteLines: true };
}

/** Whether sniff would take these first bytes (no BOM, no NUL) for UTF-8, binary aside: the cheap half of sniff. */
export function isUtf8Sample(bytes: Buffer, complete: boolean): boolean {
  return isUtf8(complete ? bytes : withoutCutCharacter(bytes.subarray(0, SAMPLE_BYTES)));
}

/** Drops a UTF-8 sequence cut off at the end of a sample, so only real errors fail validation. */
function withoutCutCharacter(bytes: Buffer): Buffer {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const byte = bytes[i] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - i < needed ? bytes.subarray(0, i) : bytes;
  }
  return bytes;
}

/**
 * The encoding a caller names (read_file's `encoding`), or null when iconv-lite does not know it.
 * A file that starts with that encoding's byte order mark keeps it out of the text.
 */
export function namedEncoding(name: string, start: Buffer): TextEncoding | null {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  if (key === '' || !iconv().encodingExists(name.trim())) return null;
  const boms: Record<string, number[]> = { utf8: [0xef, 0xbb, 0xbf], utf16le: [0xff, 0xfe], utf16be: [0xfe, 0xff] };
  const canonical = key in boms ? key : name.trim();
  const bom = boms[key]?.every((byte, i) => start[i] === byte) ?? false;
  // In UTF-16 and UTF-32 a 0x0A byte can be half of another character.
  const byteLines = !/^(utf16|utf32|ucs2|ucs4)/.test(key);
  return { name: canonical, bom, label: name.trim(), byteLines };
}

export function bomLength(encoding: TextEncoding): number {
  if (!encoding.bom) return 0;
  return encoding.name === 'utf8' ? 3 : 2;
}

/** Decodes bytes that do not include the BOM. */
export function decode(bytes: Buffer, encoding: TextEncoding): string {
  if (encoding.name === 'utf8' || encoding.name === 'utf16le') return bytes.toString(encoding.name);
  return iconv().decode(bytes, encoding.name, { stripBOM: false });
}

export interface Unrepresentable {
  char: string;
  line: number;
}

export type Encoded = { ok: true; bytes: Buffer } | { ok: false; unrepresentable: Unrepresentable[] };

/** Encodes text (BOM included when the encoding has one), or names the characters it cannot hold. */
export function encode(text: string, encoding: TextEncoding): Encoded {
  switch (encoding.name) {
    case 'utf8':
      return { ok: true, bytes: withBom(Buffer.from(text, 'utf8'), encoding.bom ? [0xef, 0xbb, 0xbf] : []) };
    case 'utf16le':
      return { ok: true, bytes: withBom(Buffer.from(text, 'utf16le'), encoding.bom ? [0xff, 0xfe] : []) };
    case 'utf16be':
      return { ok: true, bytes: withBom(iconv().encode(text, 'utf16be'), encoding.bom ? [0xfe, 0xff] : []) };
  }
  const bytes = iconv().encode(text, encoding.name);
  // iconv-lite silently writes '?' for what it cannot encode; a round trip is the only way to tell.
  if (iconv().decode(bytes, encoding.name, { stripBOM: false }) === text) return { ok: true, bytes };
  return { ok: false, unrepresentable: findUnrepresentable(text, encoding.name) };
}

function withBom(body: Buffer, bom: number[]): Buffer {
  return bom.length === 0 ? body : Buffer.concat([Buffer.from(bom), body]);
}

/** Up to five distinct characters the legacy encoding cannot hold, with the line each first appears on. */
function findUnrepresentable(text: string, name: string, limit = 5): Unrepresentable[] {
  const verdicts = new Map<string, boolean>();
  const found: Unrepresentable[] = [];
  let line = 1;
  for (const char of text) {
    if (char === '\n') line++;
    if (char.charCodeAt(0) < 0x80 || verdicts.has(char)) continue;
    const fits = iconv().decode(iconv().encode(char, name), name, { stripBOM: false }) === char;
    verdicts.set(char, fits);
    if (!fits) {
      found.push({ char, line });
      if (found.length >= limit) break;
    }
  }
  return found;
}

/** "😀" (U+1F600, line 3), … — for refusals a model can act on. */
export function describeUnrepresentable(items: readonly Unrepresentable[]): string {
  return items.map(({ char, line }) => `"${char}" (U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}, line ${line})`).join(', ');
}

/** The line ending a text mostly uses; a file with no line breaks counts as LF. */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 0x0d) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}
