import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { EFFORT_LEVELS } from '../../common/modelCapabilities';
import type { ModelFacts } from './modelFacts';

const FORMAT = 1;
/** In the data folder. */
export const MODEL_CATALOGUE_FILE = 'model-catalogue.json';

const FactsSchema: z.ZodType<ModelFacts> = z.object({
  id: z.string(),
  maxInputTokens: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  thinking: z.object({ adaptive: z.boolean(), enabled: z.boolean() }).optional(),
  effort: z.array(z.enum(EFFORT_LEVELS)).optional(),
  webSearch: z.boolean().optional(),
  deprecated: z.boolean(),
  source: z.enum(['endpoint', 'builtin']),
});

const EndpointSchema = z.object({
  catalogue: z.object({ fetchedAt: z.number(), models: z.array(FactsSchema), warning: z.string().optional() }).optional(),
  learned: z
    .object({
      windows: z.record(z.string(), z.number().int().positive()),
      thinkingRefused: z.boolean(),
      effortRefused: z.array(z.string()),
    })
    .optional(),
});

const CacheFileSchema = z.object({ format: z.literal(FORMAT), endpoints: z.record(z.string(), EndpointSchema) });

export type CachedEndpoint = z.infer<typeof EndpointSchema>;
export type CachedEndpoints = Record<string, CachedEndpoint>;

/**
 * The endpoints' catalogues and what each service taught Keel, kept in the data folder so that a
 * new process (every `keel run`, the app after a restart) starts with them instead of asking the
 * endpoint before its first request. Keyed by endpoint and a hash of the key, never the key.
 */
export class CatalogueCache {
  constructor(
    private readonly file: string,
    private readonly log?: (line: string) => void,
  ) {}

  /** What was kept; a missing file is empty, an unreadable one is a warning and empty. */
  read(): CachedEndpoints {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed = CacheFileSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data.endpoints;
    } catch {
      // Not JSON: same as a file of another shape.
    }
    this.log?.(`warning: ${this.file} is not a model catalogue Keel can read; it will be written again.`);
    return {};
  }

  /** Replaces the file whole (a reader sees the old or the new one); a failure is a warning only. */
  write(endpoints: CachedEndpoints): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temporary, JSON.stringify({ format: FORMAT, endpoints }), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch (error) {
      this.log?.(`warning: the model catalogue could not be kept in ${this.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
