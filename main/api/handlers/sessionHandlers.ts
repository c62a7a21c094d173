import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import { removeSessionWorktrees } from '../../helpers/helperWorktrees';
import { emptySessionId } from '../../session/emptySession';
import { listSessions, sessionExists, trashSession } from '../../session/sessionIndex';
import { describeOwner, lockSession } from '../../session/sessionLock';
import { sessionTranscriptPath } from '../../session/workspaceSession';
import { timelineFromRecords } from '../../session/timeline';
import { readTranscript } from '../../session/transcript';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';
import { agentStatus, type AgentStatusContext } from './agentStatus';

export function sessionHandlers(
  core: Pick<HandlerContext, 'changeCleanup' | 'currentLiveAnswer' | 'imageCleanup' | 'openWorkspace'> & AgentStatusContext,
): Pick<Handlers, 'chat.history' | 'chat.load' | 'session.list' | 'session.new' | 'session.open' | 'session.delete'> {
  const dataDir = core.options.dataDir;
  const noFolder = () => fail(ErrorCodes.noWorkspace, 'No folder is open. Open a folder first; sessions are kept per folder.');
  return {
    'chat.history': () => {
      const session = core.currentSession;
      return ok(session ? timelineFromRecords(readTranscript(session.transcriptPath).records) : []);
    },
    'chat.load': () => {
      const session = core.currentSession;
      const live = core.currentLiveAnswer;
      // Read in one tick: the chat and the status hold every event numbered up to `upTo`, and none after.
      const items = session && live ? live.withStreamed(timelineFromRecords(readTranscript(session.transcriptPath).records)) : [];
      return ok({ items, status: agentStatus(core), upTo: live?.seq ?? 0 });
    },
    'session.list': () => ok(core.currentSession ? listSessions(dataDir, core.currentSession.workspace) : []),
    'session.new': () => {
      const session = core.currentSession;
      if (!session) return noFolder();
      // An untouched session is reused rather than another empty one made beside it.
      const empty = emptySessionId(dataDir, session.workspace);
      return empty === null ? core.openWorkspace(session.workspace, { fresh: true }) : core.openWorkspace(session.workspace, { sessionId: empty });
    },
    'session.open': ({ id }) => {
      const session = core.currentSession;
      if (!session) return noFolder();
      if (!sessionExists(dataDir, session.workspace, id)) {
        return fail(
          ErrorCodes.workspaceNotFound,
          `There is no session "${id}" for this folder (it may have been deleted). Pick one from the list, or start a new one.`,
        );
      }
      return core.openWorkspace(session.workspace, { sessionId: id });
    },
    'session.delete': async ({ id }) => {
      const session = core.currentSession;
      if (!session) return noFolder();
      if (session.id === id && core.currentAgent?.running) {
        return fail(ErrorCodes.taskRunning, 'This session is running a task. Stop it before deleting the session.');
      }
      const path = sessionTranscriptPath(dataDir, session.workspace, id);
      if (!path) return ok({ deleted: false });
      // Held until the transcript is in the trash: no other Keel opens the session (and writes its changes) meanwhile.
      const claim = lockSession(path);
      if (!claim.ok) return fail(ErrorCodes.sessionInUse, `This session is open in ${describeOwner(claim.owner)}. Close it there before deleting it.`);
      let deleted: boolean;
      try {
        // Noted before the move, so a crash right after it still leaves the pictures to remove.
        await core.imageCleanup.noteDeletedSession(path, id);
        deleted = trashSession(dataDir, session.workspace, id);
      } finally {
        claim.lock.release();
      }
      // Deleting the open session leaves the folder on its newest remaining session, or a new one.
      if (deleted && session.id === id) core.openWorkspace(session.workspace);
      // Only its own Changes view could undo with its saved copies of the person's files, and it can no longer be
      // opened: they go with it. Not while it is still the open session (switching failed); the next start erases them.
      if (deleted && core.currentSession?.id !== id) await core.changeCleanup.eraseSession(id);
      // Its pictures may show the person's screen: gone with it, unless another session shows them too.
      if (deleted) await core.imageCleanup.sweep();
      // Its helpers' kept worktrees (and their refs in the person's repository) can no longer be merged.
      if (deleted) await removeSessionWorktrees(session.workspace, dataDir, id, core.options.log);
      return ok({ deleted });
    },
  };
}
