import type { z } from 'zod';
import type { AgentStatusSchema } from '../../../common/contract';
import { readInstructions } from '../../agent/instructions';
import { emptyUsage } from '../../session/restoreMessages';
import type { HandlerContext } from '../handlerContext';

export type AgentStatusContext = Pick<
  HandlerContext,
  'approvalMode' | 'currentAgent' | 'currentLiveCalls' | 'currentSession' | 'modelSettings' | 'runSettings' | 'options' | 'settings'
>;

/** What the open session's agent is doing now (`agent.status`, and the status a window's chat loads with). */
export function agentStatus(core: AgentStatusContext): z.infer<typeof AgentStatusSchema> {
  const agent = core.currentAgent;
  const session = core.currentSession;
  return {
    running: agent?.running ?? false,
    state: agent?.state ?? 'idle',
    model: core.modelSettings().model,
    usage: session ? { ...session.usage } : emptyUsage(),
    approvalMode: session ? core.approvalMode(session) : core.settings.view().approvalMode,
    pendingApprovals: agent?.approvals.pending ?? [],
    queued: agent?.queued ?? [],
    liveCalls: core.currentLiveCalls?.snapshot() ?? { calls: [], approvals: [] },
    ...(agent && session
      ? { context: agent.contextUsage(core.runSettings()), instructionFiles: readInstructions(session.workspace, core.options.dataDir).files }
      : {}),
    ...(agent?.lastOpenSteps === undefined ? {} : { openAtEnd: agent.lastOpenSteps }),
  };
}
