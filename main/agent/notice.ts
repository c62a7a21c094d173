import type { AgentEvent } from '../../common/agentEvents';
import type { NoticeKind } from '../session/transcriptRecords';
import type { NoticeExtra, WorkspaceSession } from '../session/workspaceSession';

/** Tells the person what Keel told the model on its own: shown in the chat, kept in the transcript. */
export type Notify = (kind: NoticeKind, message: string, extra?: NoticeExtra) => void;

export function noticeTo(session: WorkspaceSession, emit: (event: AgentEvent) => void): Notify {
  return (kind, message, extra = {}) => {
    session.recordNotice(kind, message, extra);
    emit({ type: 'notice', kind, message, ...extra });
  };
}
