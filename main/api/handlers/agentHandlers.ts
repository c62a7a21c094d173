import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';
import { ModelError } from '../../agent/modelClient';
import { agentStatus } from './agentStatus';
import { prepareMessageAttachments } from './messageAttachments';

const NO_FOLDER = 'No folder is open. Open a folder for the agent to work in first.';

export function agentHandlers(
  core: Pick<
    HandlerContext,
    'approvalMode' | 'currentAgent' | 'currentLiveCalls' | 'currentSession' | 'modelSettings' | 'runSettings' | 'options' | 'settings' | 'emit'
  >,
): Pick<
  Handlers,
  'task.send' | 'task.stop' | 'agent.status' | 'context.compact' | 'approval.setMode' | 'approval.respond' | 'approval.rules' | 'approval.revoke'
> {
  return {
    /** While a task runs, a new message is queued for the agent's next step rather than refused. */
    'task.send': async ({ text, images, mentions }) => {
      const agent = core.currentAgent;
      const session = core.currentSession;
      if (!agent || !session) return fail(ErrorCodes.noWorkspace, NO_FOLDER);
      const attachments = await prepareMessageAttachments(session, images, mentions);
      if (!attachments.ok) return fail(ErrorCodes.badRequest, attachments.message);
      // The folder may have changed while the mentioned files were read.
      if (core.currentAgent !== agent) return fail(ErrorCodes.noWorkspace, 'The folder changed while the message was being prepared. Send it again.');
      if (agent.running) return ok({ taskId: agent.enqueue(text, attachments.value).id, queued: true });
      return ok({ taskId: agent.startTask(text, attachments.value).taskId, queued: false });
    },
    'task.stop': () => {
      const running = core.currentAgent?.running ?? false;
      core.currentAgent?.stop();
      return ok({ stopped: running });
    },
    'agent.status': () => ok(agentStatus(core)),
    'context.compact': async () => {
      const agent = core.currentAgent;
      if (!agent) return fail(ErrorCodes.noWorkspace, NO_FOLDER);
      if (agent.running)
        return fail(ErrorCodes.taskRunning, 'A task is running: Keel makes room by itself while it works. Wait for it to finish (or stop it), then compact.');
      try {
        return ok({ compactions: await agent.compactNow() });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail(error instanceof ModelError ? ErrorCodes.config : ErrorCodes.taskRunning, message);
      }
    },
    'approval.setMode': async ({ mode }) => {
      const session = core.currentSession;
      if (!session) return fail(ErrorCodes.noWorkspace, NO_FOLDER);
      session.setApprovalMode(mode);
      // The last choice is the next session's too (a new session says which mode it starts in).
      const saved = await core.settings.update({ approvalMode: mode });
      if (!saved.ok) core.options.log?.(`warning: the approval mode was not saved as the default: ${saved.error.message}`);
      const inForce = core.approvalMode(session);
      core.emit('approval.modeChanged', { mode: inForce });
      return ok({ mode: inForce });
    },
    'approval.respond': ({ id, answer }) => ok({ answered: core.currentAgent?.approvals.answer(id, answer) ?? false }),
    'approval.rules': () => ok({ rules: [...(core.currentSession?.approvalRules ?? [])] }),
    'approval.revoke': ({ rule }) => {
      core.currentSession?.revokeRule(rule);
      return ok({ rules: [...(core.currentSession?.approvalRules ?? [])] });
    },
  };
}
