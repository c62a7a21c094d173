import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PlanVersion } from '../../common/plan/types';
import { PlanStore } from '../plan/store';
import { restorePlanHistory } from './restorePlan';
import { readTranscript, TranscriptWriter } from './transcript';

export const TRANSCRIPT_FORMAT = 1;

/** A folder a person works in, with the plan and transcript of its current session. */
export class WorkspaceSession {
  private constructor(
    readonly workspace: string,
    readonly id: string,
    readonly transcriptPath: string,
    readonly plan: PlanStore,
    readonly transcript: TranscriptWriter,
    /** What was skipped while loading the transcript, for the person to see. */
    readonly warnings: string[],
  ) {
    plan.onChange((version) => transcript.append(planRecord(version)));
  }

  get name(): string {
    return basename(this.workspace) || this.workspace;
  }

  /** Opens the folder's latest session, or creates its first one. */
  static open(dataDir: string, folder: string): WorkspaceSession {
    const workspace = resolveWorkspace(folder);
    const dir = sessionsFolder(dataDir, workspace);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const latest = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .at(-1);
    return latest ? WorkspaceSession.load(workspace, join(dir, latest)) : WorkspaceSession.create(workspace, dir);
  }

  private static create(workspace: string, dir: string): WorkspaceSession {
    const id = newSessionId();
    const path = join(dir, `${id}.jsonl`);
    const transcript = new TranscriptWriter(path);
    transcript.append({ type: 'session', format: TRANSCRIPT_FORMAT, id, workspace, createdAt: new Date().toISOString() });
    return new WorkspaceSession(workspace, id, path, new PlanStore(), transcript, []);
  }

  private static load(workspace: string, path: string): WorkspaceSession {
    const { records, warnings } = readTranscript(path);
    const id = basename(path, '.jsonl');
    const restored = restorePlanHistory(records.filter((r) => r.type === 'plan'));
    return new WorkspaceSession(workspace, id, path, new PlanStore(restored.history), new TranscriptWriter(path), [
      ...warnings,
      ...restored.warnings,
    ]);
  }
}

function planRecord(version: PlanVersion): object {
  return { type: 'plan', ...version };
}

/** The real path of an existing folder, or an error that says what to do. */
export function resolveWorkspace(folder: string): string {
  if (!existsSync(folder)) throw new WorkspaceError(`The folder "${folder}" does not exist. Check the path, or create the folder first.`);
  const real = realpathSync(folder);
  if (!statSync(real).isDirectory()) throw new WorkspaceError(`"${folder}" is a file, not a folder. Open the folder that contains it.`);
  return real;
}

export class WorkspaceError extends Error {}

/** Sessions of one folder live together, keyed by a hash of its real path. */
export function sessionsFolder(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return join(dataDir, 'sessions', key);
}

/** Sorts by creation time as text, so the newest session is the last file name. */
function newSessionId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
