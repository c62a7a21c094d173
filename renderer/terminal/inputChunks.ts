import { LIMITS } from '../../common/limits';

/**
 * Splits what the person typed or pasted into pieces the contract accepts (`terminal.input` takes
 * at most LIMITS.terminalInputChars characters), never between the two halves of a surrogate pair.
 */
export function inputChunks(data: string, max: number = LIMITS.terminalInputChars): string[] {
  if (data.length <= max) return [data];
  const chunks: string[] = [];
  for (let start = 0; start < data.length;) {
    let end = Math.min(start + max, data.length);
    const last = data.charCodeAt(end - 1);
    if (end < data.length && last >= 0xd800 && last <= 0xdbff) end--;
    chunks.push(data.slice(start, end));
    start = end;
  }
  return chunks;
}
