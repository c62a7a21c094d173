import { statSync } from 'node:fs';
import { listSessions } from './sessionIndex';
import { readTranscript } from './transcript';
import { sessionTranscriptPath } from './workspaceSession';

/** A transcript with nothing in it but its header is a few hundred bytes; anything bigger has content. */
const EMPTY_MAX_BYTES = 4096;

/**
 * The folder's newest session in which nothing happened yet (no task, no plan, no message, no
 * approval setting: only its header), or null. "New session" reuses it instead of piling up
 * another empty one.
 */
export function emptySessionId(dataDir: string, workspace: string): string | null {
  for (const session of listSessions(dataDir, workspace)) {
    if (session.lastOutcome !== null || session.title !== 'New session') continue;
    const path = sessionTranscriptPath(dataDir, workspace, session.id);
    if (path === null || statSync(path).size > EMPTY_MAX_BYTES) continue;
    const { records } = readTranscript(path);
    if (records.every((record) => record.type === 'session')) return session.id;
  }
  return null;
}
