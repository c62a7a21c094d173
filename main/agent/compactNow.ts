import type { CompactionInfo } from '../../common/contextWindow';
import type { ModelSettings } from '../settings/modelSettings';
import type { AgentOptions } from './agentOptions';
import type { ContextKeeper } from './compaction/contextKeeper';
import { createModelClient } from './modelClient';

/** "Compact now": summarises the older conversation between tasks; a task sent meanwhile waits for it. */
export class CompactNow {
  private current: { controller: AbortController; done: Promise<unknown> } | null = null;
  /** The message that started the latest task: repeated after a summary. */
  lastTask: string | null = null;

  /**
   * `setPrefix` gives the context the system prompt and tools as the next request sends them;
   * `emitContext` tells the window how full it is afterwards.
   */
  constructor(
    private readonly context: ContextKeeper,
    private readonly options: Pick<AgentOptions, 'settings' | 'createClient'>,
    private readonly setPrefix: () => void,
    private readonly emitContext: (settings: ModelSettings) => void,
  ) {}

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
      const settings = this.options.settings();
      const client = await (this.options.createClient ?? createModelClient)(settings);
      this.setPrefix();
      const infos = await this.context.now({ client, settings, task: this.lastTask, signal: controller.signal });
      this.emitContext(settings);
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
