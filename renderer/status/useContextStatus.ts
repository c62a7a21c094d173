import { useCallback, useEffect, useState } from 'react';
import type { ContextUsage, InstructionFile } from '../../common/contextWindow';
import { api } from '../api';

export interface ContextStatusView {
  context: ContextUsage | null;
  instructionFiles: InstructionFile[];
  running: boolean;
  compacting: boolean;
  /** Why the last "Compact now" failed, or that there was nothing to compact. */
  note: { kind: 'error' | 'nothing'; message: string } | null;
  compact(): Promise<void>;
}

/**
 * How full the model's context window is and which instruction files apply: `agent.status` when
 * the window opens, the session changes, a task starts or ends or `settingsKey` (the saved window
 * and threshold) changes, then `context` events.
 */
export function useContextStatus(settingsKey = ''): ContextStatusView {
  const [context, setContext] = useState<ContextUsage | null>(null);
  const [instructionFiles, setInstructionFiles] = useState<InstructionFile[]>([]);
  const [running, setRunning] = useState(false);
  const [compacting, setCompacting] = useState(false);
  const [note, setNote] = useState<ContextStatusView['note']>(null);

  useEffect(() => {
    let live = true;
    const refresh = () =>
      void api.request('agent.status', {}).then((result) => {
        if (!live || !result.ok) return;
        setContext(result.value.context ?? null);
        setInstructionFiles(result.value.instructionFiles ?? []);
        setRunning(result.value.running);
      });
    refresh();
    const stopAgent = api.on('agent.event', (event) => {
      if (event.type === 'context') {
        const { type: _type, ...usage } = event;
        setContext(usage);
      } else if (event.type === 'task_started') {
        setRunning(true);
        setNote(null);
        refresh();
      } else if (event.type === 'task_finished') {
        setRunning(false);
        refresh();
      }
    });
    // The catalogue's window for the model arrived, or the model changed: the meter's window follows.
    const stopModel = api.on('model.changed', () => refresh());
    const stopWorkspace = api.on('workspace.changed', () => {
      setNote(null);
      refresh();
    });
    return () => {
      live = false;
      stopAgent();
      stopModel();
      stopWorkspace();
    };
    // settingsKey: a window saved in the settings is shown now, not only when the next task starts.
  }, [settingsKey]);

  const compact = useCallback(async () => {
    setCompacting(true);
    setNote(null);
    try {
      const result = await api.request('context.compact', {});
      if (!result.ok) setNote({ kind: 'error', message: result.error.message });
      else if (result.value.compactions.length === 0) setNote({ kind: 'nothing', message: '' });
    } finally {
      setCompacting(false);
    }
  }, []);

  return { context, instructionFiles, running, compacting, note, compact };
}
