import { loadAnthropicSdk } from './anthropicSdk';
import { createHash } from 'node:crypto';
import type { Effort } from '../../common/modelCapabilities';
import type { ModelSettings } from '../settings/modelSettings';
import { builtinFacts } from './builtinModels';
import type { CatalogueCache, CachedEndpoints } from './catalogueCache';
import type { ModelFacts } from './modelFacts';
import { resolveProfile, type ModelProfile } from './modelProfile';
import { parseCatalogue } from './parseCatalogue';

/** How long a task waits for a catalogue it has never had: a moment, then it goes on with defaults. */
export const FIRST_LOOKUP_WAIT_MS = 1_500;
/** A catalogue is asked again after this long, in the background; one that failed, sooner. */
const REFRESH_MS = 60 * 60 * 1000;
const RETRY_FAILED_MS = 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

interface Entry {
  models: Map<string, ModelFacts>;
  warning?: string;
  /** When the endpoint answered with these models (kept in the cache). */
  fetchedAt: number;
  /** The endpoint could not be read: not kept in the cache, asked again soon. */
  failed?: boolean;
  /** Asked again after this time (a failure sooner than a catalogue that was read). */
  expiresAt: number;
}

/** What the service itself said about an endpoint and model while Keel used it. */
interface Learned {
  windows: Map<string, number>;
  thinkingRefused: boolean;
  effortRefused: Set<string>;
}

/**
 * The endpoint's model catalogue, per endpoint and key, asked for in the background and kept;
 * with what the service taught while it was used (a smaller window, thinking refused).
 */
export class ModelCatalogue {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly learned = new Map<string, Learned>();

  /**
   * With a cache, a new process starts with what an earlier one read and learned: its first task
   * does not wait for the endpoint, and a stale catalogue is used while it is asked again.
   */
  constructor(
    private readonly log?: (line: string) => void,
    private readonly cache?: CatalogueCache,
  ) {
    for (const [key, kept] of Object.entries(cache?.read() ?? {})) {
      if (kept.catalogue) {
        const { fetchedAt, models, warning } = kept.catalogue;
        this.entries.set(key, { models: new Map(models.map((m) => [m.id, m])), fetchedAt, expiresAt: fetchedAt + REFRESH_MS, ...(warning ? { warning } : {}) });
      }
      if (kept.learned) {
        const { windows, thinkingRefused, effortRefused } = kept.learned;
        this.learned.set(key, { windows: new Map(Object.entries(windows)), thinkingRefused, effortRefused: new Set(effortRefused) });
      }
    }
  }

  /** Starts fetching the catalogue for these settings unless it is fresh or on its way. */
  refresh(settings: ModelSettings): Promise<void> {
    const key = endpointKey(settings);
    const entry = this.entries.get(key);
    if (entry && Date.now() < entry.expiresAt) return Promise.resolve();
    const running = this.pending.get(key);
    if (running) return running;
    if (!settings.apiKey) return Promise.resolve();
    const job = fetchCatalogue(settings)
      .then((fetched) => {
        const now = Date.now();
        const kept = this.entries.get(key);
        if (fetched.failed && kept && kept.models.size > 0) {
          // An endpoint that fails for a while keeps the models it listed before.
          this.entries.set(key, {
            ...kept,
            expiresAt: now + RETRY_FAILED_MS,
            warning: `${fetched.warning} Keel uses the catalogue it read on ${new Date(kept.fetchedAt).toISOString().slice(0, 10)}.`,
          });
        } else {
          this.entries.set(key, { ...fetched, fetchedAt: now, expiresAt: now + (fetched.failed ? RETRY_FAILED_MS : REFRESH_MS) });
          if (!fetched.failed) this.save();
        }
        if (fetched.warning) this.log?.(`warning: ${fetched.warning}`);
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, job);
    return job;
  }

  /** The profile to run with; waits at most `waitMs` for a catalogue never fetched before. */
  async profile(settings: ModelSettings, sessionEffort?: Effort, waitMs = FIRST_LOOKUP_WAIT_MS): Promise<ModelProfile> {
    const key = endpointKey(settings);
    const job = this.refresh(settings);
    if (!this.entries.has(key)) await Promise.race([job, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    return this.profileNow(settings, sessionEffort);
  }

  /** The profile from what is known now, never waiting. */
  profileNow(settings: ModelSettings, sessionEffort?: Effort): ModelProfile {
    const entry = this.entries.get(endpointKey(settings));
    const learned = this.learned.get(endpointKey(settings));
    const facts = entry?.models.get(settings.model) ?? builtinFacts(settings.model);
    const models = entry ? [...entry.models.values()].map((m) => ({ id: m.id, deprecated: m.deprecated })) : [];
    return resolveProfile({
      settings,
      ...(facts ? { facts } : {}),
      ...(learned?.windows.has(settings.model) ? { learnedWindow: learned.windows.get(settings.model)! } : {}),
      thinkingRefused: learned?.thinkingRefused ?? false,
      effortRefused: learned?.effortRefused.has(settings.model) ?? false,
      ...(sessionEffort ? { sessionEffort } : {}),
      models,
      ...(entry?.warning ? { warning: entry.warning } : {}),
    });
  }

  /** The service said the model's window is `limit` tokens ("N tokens > M maximum"). */
  learnWindow(settings: ModelSettings, limit: number): void {
    const learned = this.learnedFor(settings);
    learned.windows.set(settings.model, Math.min(limit, learned.windows.get(settings.model) ?? Infinity));
    this.save();
  }

  learnThinkingRefused(settings: ModelSettings): void {
    this.learnedFor(settings).thinkingRefused = true;
    this.save();
  }

  learnEffortRefused(settings: ModelSettings): void {
    this.learnedFor(settings).effortRefused.add(settings.model);
    this.save();
  }

  /** Everything read (not failures) and learned, for the next process. */
  private save(): void {
    if (!this.cache) return;
    const endpoints: CachedEndpoints = {};
    for (const [key, entry] of this.entries) {
      if (entry.failed) continue;
      endpoints[key] = { catalogue: { fetchedAt: entry.fetchedAt, models: [...entry.models.values()], ...(entry.warning ? { warning: entry.warning } : {}) } };
    }
    for (const [key, learned] of this.learned) {
      endpoints[key] = {
        ...endpoints[key],
        learned: { windows: Object.fromEntries(learned.windows), thinkingRefused: learned.thinkingRefused, effortRefused: [...learned.effortRefused] },
      };
    }
    this.cache.write(endpoints);
  }

  private learnedFor(settings: ModelSettings): Learned {
    const key = endpointKey(settings);
    let learned = this.learned.get(key);
    if (!learned) this.learned.set(key, (learned = { windows: new Map(), thinkingRefused: false, effortRefused: new Set() }));
    return learned;
  }
}

/** The endpoint and key, the key only as a hash: catalogues differ per key (its organisation's models). */
function endpointKey(settings: ModelSettings): string {
  const key = createHash('sha256')
    .update(settings.apiKey ?? '')
    .digest('hex')
    .slice(0, 16);
  return `${settings.baseURL ?? 'https://api.anthropic.com'}\u0000${key}`;
}

/** GET /v1/models; a missing route or an error leaves the catalogue empty (the built-in table applies). */
async function fetchCatalogue(settings: ModelSettings): Promise<Omit<Entry, 'expiresAt' | 'fetchedAt'>> {
  const Anthropic = await loadAnthropicSdk();
  const client = new Anthropic({ apiKey: settings.apiKey, baseURL: settings.baseURL ?? null, maxRetries: 1, timeout: FETCH_TIMEOUT_MS });
  try {
    const response = await client.models.list({ limit: 1000 }).asResponse();
    const parsed = parseCatalogue(await response.json().catch(() => undefined));
    return { models: new Map(parsed.models.map((m) => [m.id, m])), ...(parsed.warning ? { warning: parsed.warning } : {}) };
  } catch (error) {
    // Many compatible endpoints have no catalogue (404): that is normal, not worth a warning.
    if (error instanceof Anthropic.NotFoundError) return { models: new Map() };
    return {
      models: new Map(),
      failed: true,
      warning: `The endpoint's model catalogue could not be read (${error instanceof Error ? error.message : String(error)}); Keel uses its defaults.`,
    };
  }
}
