/**
 * Ranks workspace paths for what the person typed after `@`: a file name that starts with it first,
 * then a path that starts with it, then a name, then a path that contains it, then the letters in
 * order anywhere (fuzzy); shorter paths first within each kind. Case is ignored.
 */

/** The paths prepared once per index, so a query does no allocation per path. */
export interface RankablePaths {
  paths: readonly string[];
  lower: readonly string[];
  /** Where the file name starts in each path. */
  nameAt: readonly number[];
}

export function prepareRankable(paths: readonly string[]): RankablePaths {
  return {
    paths,
    lower: paths.map((path) => path.toLowerCase()),
    nameAt: paths.map((path) => path.lastIndexOf('/') + 1),
  };
}

const NAME_PREFIX = 5_000_000;
const PATH_PREFIX = 4_000_000;
const NAME_CONTAINS = 3_000_000;
const PATH_CONTAINS = 2_000_000;
const FUZZY = 1_000_000;

/** The best `limit` paths for the query, best first. An empty query lists the shallowest paths. */
export function rankPaths(index: RankablePaths, query: string, limit: number): string[] {
  const q = query.replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
  const best: { score: number; at: number }[] = [];
  const { lower, nameAt } = index;
  for (let i = 0; i < lower.length; i++) {
    const path = lower[i]!;
    const score = q === '' ? FUZZY - depthOf(path) * 1000 : scoreOf(path, nameAt[i]!, q);
    if (score <= 0) continue;
    const ranked = score - Math.min(path.length, 999);
    if (best.length === limit && ranked <= best[best.length - 1]!.score) continue;
    insert(best, { score: ranked, at: i }, limit);
  }
  return best.map((entry) => index.paths[entry.at]!);
}

function scoreOf(path: string, nameAt: number, q: string): number {
  if (path.startsWith(q, nameAt)) return NAME_PREFIX;
  if (path.startsWith(q)) return PATH_PREFIX;
  if (path.indexOf(q, nameAt) >= 0) return NAME_CONTAINS;
  if (path.includes(q)) return PATH_CONTAINS;
  return fuzzyScore(path, q);
}

/** The letters of the query in order; fewer gaps score higher. 0 when they are not all there. */
function fuzzyScore(path: string, q: string): number {
  let at = 0;
  let gaps = 0;
  for (let k = 0; k < q.length; k++) {
    const found = path.indexOf(q[k]!, at);
    if (found < 0) return 0;
    if (found !== at && k > 0) gaps++;
    at = found + 1;
  }
  return FUZZY - gaps * 10_000;
}

function depthOf(path: string): number {
  let depth = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++;
  return depth;
}

/** Keeps `best` sorted by score (ties: earlier paths first), at most `limit` long. */
function insert(best: { score: number; at: number }[], entry: { score: number; at: number }, limit: number): void {
  let i = best.length;
  while (i > 0 && best[i - 1]!.score < entry.score) i--;
  best.splice(i, 0, entry);
  if (best.length > limit) best.pop();
}
