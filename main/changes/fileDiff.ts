import { createTwoFilesPatch } from 'diff';
import { bomLength, decode, formatSize, sniff } from '../tools/files/fileAccess';

/** Above this a side is not diffed: the view would be unreadable and the diff slow. */
export const MAX_DIFF_BYTES = 1024 * 1024;
/** jsdiff gives up (returns undefined) past this; a rewrite of a big file should not stall the list. */
const DIFF_TIMEOUT_MS = 1000;

/** One side of a change: its bytes, or null when the file did not exist. */
export type Side = Buffer | null;

/**
 * A unified diff of a file from before a task to the agent's last version, decoded with the file's
 * own encoding (GBK, UTF-16, a BOM) so it reads as text; binary and huge files say so instead.
 */
export function describeDiff(filePath: string, before: Side, after: Side): string {
  const beforeText = asText(before);
  const afterText = asText(after);
  if (beforeText.kind === 'binary' || afterText.kind === 'binary') {
    return `Binary file (${sizeOf(before)} → ${sizeOf(after)}); no diff is shown.`;
  }
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${filePath}`,
    after === null ? '/dev/null' : `b/${filePath}`,
    beforeText.text,
    afterText.text,
    '',
    '',
    // CRLF files diff like LF ones: a '\r' on every line would only add noise.
    { context: 3, stripTrailingCr: true, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) return `Too many differences to show a diff (${sizeOf(before)} → ${sizeOf(after)}).`;
  if (!patch.includes('\n@@') && before !== null && after !== null && !before.equals(after)) {
    return `${patch}Only line endings, the byte order mark or the encoding changed (${sizeOf(before)} → ${sizeOf(after)}).\n`;
  }
  return patch;
}

/** What to say when the bytes are not even read because a side is too large. */
export function tooLargeForDiff(beforeSize: number | null, afterSize: number | null): string | null {
  if ((beforeSize ?? 0) <= MAX_DIFF_BYTES && (afterSize ?? 0) <= MAX_DIFF_BYTES) return null;
  const show = (size: number | null) => (size === null ? 'none' : formatSize(size));
  return `Too large to show a diff (${show(beforeSize)} → ${show(afterSize)}; diffs are shown up to ${formatSize(MAX_DIFF_BYTES)}).`;
}

function asText(side: Side): { kind: 'text'; text: string } | { kind: 'binary' } {
  if (side === null) return { kind: 'text', text: '' };
  const sniffed = sniff(side, true);
  if (sniffed.kind === 'binary') return { kind: 'binary' };
  return { kind: 'text', text: decode(side.subarray(bomLength(sniffed.encoding)), sniffed.encoding) };
}

function sizeOf(side: Side): string {
  return side === null ? 'none' : formatSize(side.length);
}
