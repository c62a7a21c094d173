/*
 * The context fields as typed and as the contract takes them: the window in tokens ("200,000",
 * "200k"), the threshold as a percentage of it ("80" is 0.8). Empty is null: back to the default.
 * Anything else becomes NaN, which the contract's schema refuses with what it accepts. Pure.
 */

export function tokensOf(text: string): number | null {
  const clean = text.trim().replace(/[\s,_]/g, '');
  if (clean === '') return null;
  const thousands = /^(\d+(?:\.\d+)?)k$/i.exec(clean);
  if (thousands) return Math.round(Number(thousands[1]) * 1000);
  return /^\d+$/.test(clean) ? Number(clean) : Number.NaN;
}

export function shareOf(text: string): number | null {
  const clean = text.trim().replace(/\s*%$/, '');
  if (clean === '') return null;
  return /^\d+(\.\d+)?$/.test(clean) ? Number(clean) / 100 : Number.NaN;
}

/** 0.8 → "80", without the float noise of 0.57 × 100. */
export function percentOf(share: number): string {
  return String(Math.round(share * 10_000) / 100);
}
