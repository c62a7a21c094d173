import { MAX_INDEXED_FILES } from './indexLimits';
import { listWorkspaceFiles } from './workspaceFiles';
import { prepareRankable, rankPaths, type RankablePaths } from './rankPaths';

export interface MentionIndexOptions {
  /** How old the index may get before a query starts a fresh walk in the background. */
  maxAgeMs?: number;
  /** The walk; by default the workspace's files that git would not ignore. */
  list?: (root: string, onFile: (relative: string) => boolean | void, signal?: AbortSignal) => Promise<void>;
}

/**
 * The workspace's paths for @-completion, built once by a walk and then answered from memory. A
 * query on an index older than `maxAgeMs` starts a new walk in the background and is answered from
 * the old one meanwhile, so files the agent or the person made appear a moment later without any
 * query waiting for a walk. Before the first walk ends, queries rank what it has found so far.
 */
export class MentionIndex {
  private ready: RankablePaths | null = null;
  private partial: string[] = [];
  private partialRanked: { count: number; rankable: RankablePaths } | null = null;
  private builtAt = 0;
  private building: Promise<void> | null = null;
  private readonly controller = new AbortController();
  private readonly maxAgeMs: number;
  private readonly list: NonNullable<MentionIndexOptions['list']>;

  constructor(
    readonly root: string,
    options: MentionIndexOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.list = options.list ?? listWorkspaceFiles;
  }

  /** Starts the walk if none is running; resolves when the index it builds is in place. */
  refresh(): Promise<void> {
    if (this.building) return this.building;
    const found: string[] = [];
    this.partial = found;
    this.building = this.list(this.root, (path) => found.push(path) < MAX_INDEXED_FILES, this.controller.signal)
      .then(() => {
        this.ready = prepareRankable(found);
        this.builtAt = Date.now();
      })
      .catch(() => undefined) // A walk that failed (the folder went away) leaves the last index.
      .finally(() => {
        this.building = null;
        this.partialRanked = null;
      });
    return this.building;
  }

  /** The best matches now, and whether they come from a finished walk. */
  query(text: string, limit = 20): { paths: string[]; ready: boolean } {
    if (!this.ready || Date.now() - this.builtAt > this.maxAgeMs) void this.refresh();
    if (this.ready) return { paths: rankPaths(this.ready, text, limit), ready: true };
    return { paths: rankPaths(this.partialIndex(), text, limit), ready: false };
  }

  /** Stops a walk in progress (the workspace closed). */
  dispose(): void {
    this.controller.abort();
  }

  private partialIndex(): RankablePaths {
    const found = this.partial;
    if (this.partialRanked?.count !== found.length) this.partialRanked = { count: found.length, rankable: prepareRankable(found.slice()) };
    return this.partialRanked.rankable;
  }
}
