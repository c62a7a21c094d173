import type { TaskOutcome } from '../../common/agentEvents';
import { workspaceTools } from '../agent/workspaceTools';
import { KeelCore } from '../api/core';
import { snapshot } from '../api/snapshots';
import { defaultDataDir } from '../session/dataDir';
import { maskKey } from '../settings/modelSettings';
import type { RunArgs } from './runArgs';
import { stripControls } from './controlStripper';
import { RunPrinter } from './runPrinter';

export const EXIT = { done: 0, error: 1, usage: 2, unfinished: 3, interrupted: 130 } as const;

const exitFor: Record<TaskOutcome, number> = {
  done: EXIT.done,
  stopped_unfinished: EXIT.unfinished,
  error: EXIT.error,
  refused: EXIT.error,
  cancelled: EXIT.interrupted,
};

/** `keel run`: one task, headless, on the same core as the window. */
export async function runTask(args: RunArgs): Promise<number> {
  // Headless: nobody is there to answer an approval card, so the agent runs in full-auto mode.
  const core = new KeelCore({
    dataDir: defaultDataDir(),
    host: 'web',
    version: __KEEL_VERSION__,
    tools: workspaceTools,
    headless: true,
    warmSearch: true,
    trustProjectMcp: args.trustProjectMcp,
    log: (m) => console.error(stripControls(m)),
  });
  let settings;
  try {
    await core.init();
    settings = core.modelSettings();
  } catch (error) {
    console.error(`keel: ${stripControls((error as Error).message)}`);
    return EXIT.error;
  }
  if (!settings.apiKey) {
    console.error(
      'keel: No API key is set. Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another Anthropic-compatible endpoint), or add "apiKey" to the settings file.',
    );
    return EXIT.error;
  }
  const opened = core.openWorkspace(args.workspace, args.resume !== undefined ? { sessionId: args.resume } : { fresh: true });
  if (!opened.ok) {
    console.error(`keel: ${stripControls(opened.error.message)}`);
    return EXIT.error;
  }
  const agent = core.currentAgent!;
  const session = core.currentSession!;

  const printer = new RunPrinter({ write: (text) => process.stdout.write(text) });
  const emit = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);
  if (args.json) emit({ type: 'session', sessionId: session.id, workspace: session.workspace, model: settings.model });
  else console.error(`keel: session ${session.id} in ${session.workspace} (model ${settings.model}, key ${maskKey(settings.apiKey)})`);
  core.onEvent((event) => {
    if (event.channel === 'plan.changed') {
      if (args.json) emit({ type: 'plan', ...event.payload });
      else printer.plan(event.payload);
    } else if (event.channel === 'helper.changed') {
      if (args.json) emit({ type: 'helper', ...event.payload });
      else printer.helper(event.payload);
    } else if (event.channel === 'agent.event') {
      // The number is for a window joining its history to the stream; a run's output stays the events.
      const { seq: _seq, ...agentEvent } = event.payload;
      if (args.json) emit(agentEvent);
      else printer.event(agentEvent);
    }
  });

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    agent.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { done } = agent.startTask(args.task);
    const result = await done;
    if (args.json) emit({ type: 'result', outcome: result.outcome, plan: snapshot(session.plan), ...(result.message ? { message: result.message } : {}) });
    return interrupted ? EXIT.interrupted : exitFor[result.outcome];
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // MCP servers and their process trees end with the run.
    await core.dispose();
  }
}
