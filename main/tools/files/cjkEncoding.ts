import type Iconv from 'iconv-lite';
import { lazyPackage } from './lazyPackage';

const iconv = lazyPackage<typeof Iconv>('iconv-lite');

/**
 * Short CJK files defeat statistical detection: chardet ranks the 10 bytes of GBK `你好，世界`
 * as ISO-8859-7 (Greek) first and every double-byte encoding at a flat 10. So before trusting a
 * single-byte guess, each CJK double-byte encoding is tried on its own terms: the bytes must
 * decode and encode back unchanged, and (nearly) every multi-byte character must fall in the part
 * of the encoding that everyday text uses — GB2312 for GB18030, the frequent hanzi of Big5, the
 * kana and JIS kanji of Shift_JIS, the hangul of EUC-KR. Latin-1 text read as GBK, for instance,
 * yields characters whose second byte is ASCII (`naïve` → `na飗e`), which GB2312 never has.
 */

export interface CjkCandidate {
  /** iconv-lite name, as chardet spells it. */
  name: 'GB18030' | 'Big5' | 'Shift_JIS' | 'EUC-KR' | 'EUC-JP';
  /** Multi-byte characters in everyday ranges, as a share of all multi-byte characters. */
  everyday: number;
  multiByte: number;
}

/** Ties go to the first: Keel's users open Chinese files most. */
const CANDIDATES: CjkCandidate['name'][] = ['GB18030', 'Shift_JIS', 'Big5', 'EUC-KR', 'EUC-JP'];

const SCORED_BYTES = 8 * 1024;

/** Share of everyday characters a decoding needs to be believed. */
const MIN_EVERYDAY = 0.9;

/** The CJK encodings that read `sample` as everyday text, best first (`chardetOrder` breaks ties). */
export function cjkCandidates(sample: Buffer, complete: boolean, chardetConfidence: (name: string) => number = () => 0): CjkCandidate[] {
  // A few KB tell as much as the whole sample, at a fraction of the cost.
  const bytes = complete && sample.length <= SCORED_BYTES ? sample : upToLastNewline(sample.subarray(0, SCORED_BYTES));
  const found: CjkCandidate[] = [];
  for (const name of CANDIDATES) {
    const scored = score(bytes, name);
    if (scored && scored.multiByte > 0 && scored.everyday >= MIN_EVERYDAY) found.push(scored);
  }
  return found.sort(
    (a, b) => b.everyday - a.everyday || chardetConfidence(b.name) - chardetConfidence(a.name) || CANDIDATES.indexOf(a.name) - CANDIDATES.indexOf(b.name),
  );
}

/** A cut sample may end inside a character; 0x0A is never part of one in these encodings. */
function upToLastNewline(bytes: Buffer): Buffer {
  const end = bytes.lastIndexOf(0x0a);
  return end < 0 ? bytes : bytes.subarray(0, end + 1);
}

function score(bytes: Buffer, name: CjkCandidate['name']): CjkCandidate | null {
  const text = iconv().decode(bytes, name, { stripBOM: false });
  if (text.includes('\ufffd') || !iconv().encode(text, name).equals(bytes)) return null;
  // The bytes are valid: walk their characters by the encoding's own lead-byte rules.
  let multiByte = 0;
  let everyday = 0;
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = characterLength(name, lead, bytes[i + 1] ?? 0);
    multiByte++;
    if (length === 2 && isEveryday(name, bytes.subarray(i, i + 2))) everyday++;
    i += length;
  }
  return { name, everyday: multiByte === 0 ? 0 : everyday / multiByte, multiByte };
}

function characterLength(name: CjkCandidate['name'], lead: number, next: number): number {
  switch (name) {
    case 'GB18030':
      return next >= 0x30 && next <= 0x39 ? 4 : 2;
    case 'Shift_JIS':
      return lead >= 0xa1 && lead <= 0xdf ? 1 : 2;
    case 'EUC-JP':
      return lead === 0x8f ? 3 : 2;
    default:
      return 2;
  }
}

/** Only two-byte characters can be everyday: GB18030's four-byte forms, half-width kana and EUC-JP's three-byte forms are not. */
function isEveryday(name: CjkCandidate['name'], b: Buffer): boolean {
  const code = (b[0]! << 8) | b[1]!;
  const [lead, trail] = [b[0]!, b[1]!];
  switch (name) {
    case 'GB18030': // GB2312: symbols A1–A9, hanzi B0–F7, both bytes >= A1
    case 'EUC-JP': // JIS X 0208 in EUC: the same byte ranges
      return trail >= 0xa1 && trail <= 0xfe && ((lead >= 0xa1 && lead <= 0xa9) || (lead >= 0xb0 && lead <= 0xf7));
    case 'EUC-KR': // KS X 1001 symbols A1–AC and the 2,350 hangul B0–C8 (hanja, C9–FD, are rare today)
      return trail >= 0xa1 && trail <= 0xfe && ((lead >= 0xa1 && lead <= 0xac) || (lead >= 0xb0 && lead <= 0xc8));
    case 'Big5': // symbols A140–A3BF and the 5,401 frequent hanzi A440–C67E
      return (code >= 0xa140 && code <= 0xa3bf) || (code >= 0xa440 && code <= 0xc67e);
    case 'Shift_JIS': // symbols, kana, Greek, Cyrillic 8140–84BE; JIS level 1 and 2 kanji 889F–9FFC, E040–EAA4
      return (code >= 0x8140 && code <= 0x84be) || (code >= 0x889f && code <= 0x9ffc) || (code >= 0xe040 && code <= 0xeaa4);
  }
}
