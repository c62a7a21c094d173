/**
 * `npm run bench -- --quick` (or KEEL_BENCH_QUICK=1): small sizes and a few runs, to prove that
 * every bench still measures. Decided when this module loads, from the command line itself, so a
 * size read at import time by any bench is already the quick one.
 */
export const QUICK = process.argv.slice(2).includes('--quick') || process.env.KEEL_BENCH_QUICK === '1';

/** The full size, or the quick one under `--quick`. */
export function sized<T>(full: T, quick: T): T {
  return QUICK ? quick : full;
}
