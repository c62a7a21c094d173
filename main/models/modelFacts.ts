import type { Effort } from '../../common/modelCapabilities';

/** What Keel knows about one model: from the endpoint's catalogue, or from the built-in table. */
export interface ModelFacts {
  id: string;
  /** The context window, in tokens. */
  maxInputTokens?: number;
  /** The largest max_tokens the model takes. */
  maxTokens?: number;
  /** Thinking forms accepted; undefined when the source does not say. */
  thinking?: { adaptive: boolean; enabled: boolean };
  /** Effort levels accepted ([] none); undefined when the source does not say. */
  effort?: Effort[];
  webSearch?: boolean;
  deprecated: boolean;
  source: 'endpoint' | 'builtin';
}
