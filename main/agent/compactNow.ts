import type Anthropic from '@anthropic-ai/sdk';
import type { CompactionInfo } from '../../common/contextWindow';
import type { ModelSettings } from '../settings/modelSettings';
import type { ContextKeeper } from './compaction/contextKeeper';

export interface CompactNowDeps {
  context: ContextKeeper;
  settings: () => ModelSettings;
  createClient: (settings: ModelSettings) => Anthropic;
  /** Sets the context's prefix (system prompt and tools) as the next request will send it. */
  setPrefix: () => void;
  emitContext: (settings: ModelSettings) => void;
}

/** "Compact now": summarises the older conversation between tasks; a task sent meanwhile waits for it. */
export class CompactNow {
  private current: { controller: AbortController; done: Promise<unknown> } | null = null;
  /** The message that started the latest task: repeated after a summary. */
  lastTask: string | null = null;

  constructor(private readonly deps: CompactNowDeps) {}

  get running(): boolean {
    return this.current !== null;
  }

  /** Settles when no compaction is under way (it rewrites the history a task starts from). */
  async settled(): Promise<void> {
    await this.current?.done.catch(() => undefined);
  }

  stop(): void {
    this.current?.controller.abort();
  }

  /** Resolves with what was done (empty when there was nothing to compact). */
  async run(): Promise<CompactionInfo[]> {
    const controller = new AbortController();
    const run = async () => {
      const { context } = this.deps;
      const settings = this.deps.settings();
      const client = this.deps.createClient(settings);
      this.deps.setPrefix();
      const infos = await context.now({ client, settings, task: this.lastTask, signal: controller.signal });
      this.deps.emitContext(settings);
      return infos;
    };
    const compacting = run();
    this.current = { controller, done: compacting };
    try {
      return await compacting;
    } finally {
      this.current = null;
    }
  }
}
