import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ChatMessage } from '../agent/messageTypes';
import { canonicalPath } from '../platform/paths';
import type { CompactionRecord } from '../agent/compaction/compactionRecord';
import type { ApprovalMode } from '../../common/approvals';
import type { Effort } from '../../common/modelCapabilities';
import { PlanStore } from '../plan/store';
import { addUsage, emptyUsage, restoreConversation, type UsageTotals } from './restoreMessages';
import { planRecord } from './planRecords';
import { restorePlanHistory } from './restorePlan';
import { describeOwner, lockSession, type SessionLock } from './sessionLock';
import { readTranscript, TranscriptWriter } from './transcript';
import type { NoticeKind, TaskEvent } from './transcriptRecords';
import type { PlanOverride } from '../../common/plan/overrides';
import type { PlanStep } from '../../common/plan/schemas';

/** What a notice carries for the window besides its text. */
export interface NoticeExtra {
  overrides?: PlanOverride[];
  plan?: PlanStep;
}
import { ImageBlobStore, type ImageRef } from '../images/imageBlobs';
import type { ImageMediaType } from '../images/imageFormat';
import { messageForTranscript, messageFromTranscript } from '../images/transcriptImages';
import { PlanView } from '../plan/planView';
import type { HelperInfo } from '../../common/helpers';
import { restoreHelpers } from './restoreHelpers';

export const TRANSCRIPT_FORMAT = 1;

export interface OpenSessionOptions {
  /** Open this session of the folder instead of its latest. */
  sessionId?: string;
  /** Start a new session even when the folder has one. */
  fresh?: boolean;
}

interface Conversation {
  messages: ChatMessage[];
  agentSeenVersion: number;
  usage: UsageTotals;
  approvalRules: Set<string>;
  approvalMode: ApprovalMode | null;
  effort: Effort | null;
}

/**
 * A folder a person works in, with its current session: the plan, the conversation with the
 * model, and the JSONL transcript that every change is appended to as it happens.
 */
export class WorkspaceSession {
  /** The conversation as sent to the model; only complete messages are ever added. */
  readonly messages: ChatMessage[];
  /** What the session's agent has seen of the plan; kept across restarts by `plan_seen` records. */
  readonly planView: PlanView;
  readonly usage: UsageTotals;
  private readonly rules: Set<string>;
  private mode: ApprovalMode | null;
  private chosenEffort: Effort | null;
  /** This process's claim on the session: one writer per session (see sessionLock). */
  private lock: SessionLock | null = null;
  /** Pictures of the conversation, shared by every session in the data folder. */
  readonly images: ImageBlobStore;
  /** The helpers of this session as the transcript last recorded them (main/helpers/). */
  restoredHelpers: HelperInfo[] = [];
  /** A helper's session answers "allow for this session" with its parent's rules (see forHelper). */
  private parent: WorkspaceSession | null = null;

  private constructor(
    readonly workspace: string,
    readonly id: string,
    readonly transcriptPath: string,
    readonly plan: PlanStore,
    private readonly transcript: TranscriptWriter,
    /** What was skipped while loading the transcript, for the person to see. */
    readonly warnings: string[],
    conversation: Conversation,
    images: ImageBlobStore,
  ) {
    this.images = images;
    // The transcript names its pictures; the model needs their bytes again.
    this.messages = conversation.messages.map((message) => messageFromTranscript(message, images));
    this.planView = new PlanView(plan, {
      seenVersion: conversation.agentSeenVersion,
      onSeen: (version) => transcript.append({ type: 'plan_seen', version, at: new Date().toISOString() }),
    });
    this.usage = conversation.usage;
    this.rules = conversation.approvalRules;
    this.mode = conversation.approvalMode;
    this.chosenEffort = conversation.effort;
    plan.onChange((version) => transcript.append(planRecord(version, plan.history.at(-2) ?? null)));
  }

  appendMessage(message: ChatMessage): void {
    this.messages.push(message);
    this.transcript.append({ type: 'message', message: messageForTranscript(message, this.images), at: new Date().toISOString() });
  }

  /**
   * Replaces the history sent to the model by its compacted view (`next`, as
   * `applyCompactionRecord` builds it) and records how, so a resumed session rebuilds the same view.
   */
  applyCompaction(record: CompactionRecord, next: readonly ChatMessage[]): void {
    this.messages.length = 0;
    for (const message of next) this.messages.push(message);
    this.transcript.append({ type: 'compaction', ...record, at: new Date().toISOString() });
  }

  /** A helper's start or end, for a resumed session's list of helpers. */
  recordHelper(helper: HelperInfo): void {
    this.transcript.append({ type: 'helper', helper, at: new Date().toISOString() });
  }

  recordUsage(round: UsageTotals): void {
    addUsage(this.usage, round);
    this.transcript.append({ type: 'usage', round, at: new Date().toISOString() });
  }

  /** The approval mode chosen for this session, or null to follow the settings' default. */
  get approvalMode(): ApprovalMode | null {
    return this.mode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.transcript.append({ type: 'approval_mode', mode, at: new Date().toISOString() });
  }

  /** The effort picked in the status bar for this session, or null to follow the settings. */
  get effort(): Effort | null {
    return this.chosenEffort;
  }

  setEffort(effort: Effort): void {
    if (effort === this.chosenEffort) return;
    this.chosenEffort = effort;
    this.transcript.append({ type: 'effort', effort, at: new Date().toISOString() });
  }

  /** What "Allow for this session" answers have allowed (e.g. "command:npm"), until revoked. */
  get approvalRules(): ReadonlySet<string> {
    return this.parent?.approvalRules ?? this.rules;
  }

  allowForSession(rule: string): void {
    if (this.parent) return this.parent.allowForSession(rule);
    if (this.rules.has(rule)) return;
    this.rules.add(rule);
    this.transcript.append({ type: 'approval_rule', rule, allowed: true, at: new Date().toISOString() });
  }

  revokeRule(rule: string): void {
    if (this.parent) return this.parent.revokeRule(rule);
    if (!this.rules.delete(rule)) return;
    this.transcript.append({ type: 'approval_rule', rule, allowed: false, at: new Date().toISOString() });
  }

  /** Keeps a picture (base64) in the blob store; the chat shows it by the returned name. */
  keepImage(image: { mediaType: ImageMediaType; data: string }): { ref: ImageRef; mediaType: ImageMediaType } {
    return { ref: this.images.put(Buffer.from(image.data, 'base64'), image.mediaType), mediaType: image.mediaType };
  }

  /** Task boundaries and outcomes, for the history and for a person reading the transcript. */
  recordTask(event: TaskEvent): void {
    this.transcript.append({ type: 'task', ...event, at: new Date().toISOString() });
  }

  /** What Keel told the model on its own, as the chat showed it. */
  recordNotice(kind: NoticeKind, message: string, extra: NoticeExtra = {}): void {
    this.transcript.append({ type: 'notice', kind, message, ...extra, at: new Date().toISOString() });
  }

  get name(): string {
    return basename(this.workspace) || this.workspace;
  }

  /** Lets another process open this session; the session is not written to after this. */
  close(): void {
    this.transcript.close();
    this.lock?.release();
    this.lock = null;
  }

  /** Opens the folder's latest session, or creates its first one. */
  static open(dataDir: string, folder: string, options: OpenSessionOptions = {}): WorkspaceSession {
    const workspace = resolveWorkspace(folder);
    const dir = sessionsFolder(dataDir, workspace);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (options.sessionId !== undefined) {
      const path = sessionTranscriptPath(dataDir, workspace, options.sessionId);
      if (!path) {
        throw new WorkspaceError(`There is no session "${options.sessionId}" for ${workspace}. Omit --resume to start a new one.`);
      }
      const claim = lockSession(path);
      if (!claim.ok) {
        throw new SessionInUseError(
          `The session "${options.sessionId}" is open in ${describeOwner(claim.owner)}; two writers would corrupt it. Close it there first, or start a new session (omit --resume).`,
        );
      }
      return WorkspaceSession.load(workspace, path, dataDir).holding(claim.lock);
    }
    const latest = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .at(-1);
    if (latest && !options.fresh) {
      const claim = lockSession(join(dir, latest));
      if (claim.ok) return WorkspaceSession.load(workspace, join(dir, latest), dataDir).holding(claim.lock);
      // The latest session is another process's (a second window or keel web on this folder): a new one, not a shared one.
      const session = WorkspaceSession.create(workspace, dir, dataDir);
      session.warnings.push(
        `The latest session of ${workspace} (${basename(latest, '.jsonl')}) is open in ${describeOwner(claim.owner)}, so a new session was started.`,
      );
      return session;
    }
    return WorkspaceSession.create(workspace, dir, dataDir);
  }

  /**
   * A helper's own session (main/helpers/): a fresh conversation, its own plan and its own
   * transcript beside the parent's (`<id>.helpers/<helperId>.jsonl`), working in `workspace` (its
   * worktree, or the folder itself). "Allow for this session" answers are the parent's, both ways.
   */
  static forHelper(parent: WorkspaceSession, helperId: string, workspace: string): WorkspaceSession {
    const dir = join(dirname(parent.transcriptPath), `${parent.id}.helpers`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const transcript = new TranscriptWriter(join(dir, `${helperId}.jsonl`));
    transcript.append({ type: 'session', format: TRANSCRIPT_FORMAT, id: parent.id, workspace, createdAt: new Date().toISOString() });
    const session = new WorkspaceSession(
      workspace,
      // The parent's id: the sandbox's temp folder and the change records are the session's.
      parent.id,
      join(dir, `${helperId}.jsonl`),
      new PlanStore(),
      transcript,
      [],
      { messages: [], agentSeenVersion: 0, usage: emptyUsage(), approvalRules: new Set(), approvalMode: null, effort: parent.effort },
      parent.images,
    );
    session.parent = parent;
    return session;
  }

  private holding(lock: SessionLock): this {
    this.lock = lock;
    return this;
  }

  private static create(workspace: string, dir: string, dataDir: string): WorkspaceSession {
    const id = newSessionId();
    const path = join(dir, `${id}.jsonl`);
    const claim = lockSession(path);
    const transcript = new TranscriptWriter(path);
    transcript.append({ type: 'session', format: TRANSCRIPT_FORMAT, id, workspace, createdAt: new Date().toISOString() });
    const session = new WorkspaceSession(
      workspace,
      id,
      path,
      new PlanStore(),
      transcript,
      [],
      { messages: [], agentSeenVersion: 0, usage: emptyUsage(), approvalRules: new Set(), approvalMode: null, effort: null },
      new ImageBlobStore(dataDir),
    );
    return claim.ok ? session.holding(claim.lock) : session;
  }

  private static load(workspace: string, path: string, dataDir: string): WorkspaceSession {
    const { records, warnings } = readTranscript(path);
    const id = basename(path, '.jsonl');
    const restored = restorePlanHistory(records.filter((r) => r.type === 'plan'));
    const conversation = restoreConversation(records);
    const session = new WorkspaceSession(
      workspace,
      id,
      path,
      new PlanStore(restored.history),
      new TranscriptWriter(path),
      [...warnings, ...restored.warnings, ...conversation.warnings],
      conversation,
      new ImageBlobStore(dataDir),
    );
    session.restoredHelpers = restoreHelpers(records);
    return session;
  }
}

/** The real path of an existing folder, or an error that says what to do. */
export function resolveWorkspace(folder: string): string {
  if (!existsSync(folder)) throw new WorkspaceError(`The folder "${folder}" does not exist. Check the path, or create the folder first.`);
  // The native realpath, as file confinement uses: one spelling per folder (case, 8.3 names).
  const real = canonicalPath(folder);
  if (!statSync(real).isDirectory()) throw new WorkspaceError(`"${folder}" is a file, not a folder. Open the folder that contains it.`);
  return real;
}

export class WorkspaceError extends Error {}

/** The session is another live process's to write. */
export class SessionInUseError extends WorkspaceError {}

/**
 * The transcript of one session of a folder, or null when there is none. An id that is not a plain
 * name is never joined into a path.
 */
export function sessionTranscriptPath(dataDir: string, workspace: string, sessionId: string): string | null {
  if (!/^[\w.-]+$/.test(sessionId)) return null;
  const path = join(sessionsFolder(dataDir, workspace), `${sessionId}.jsonl`);
  return existsSync(path) ? path : null;
}

/** Sessions of one folder live together, keyed by a hash of its real path. */
export function sessionsFolder(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return join(dataDir, 'sessions', key);
}

/** Sorts by creation time as text, so the newest session is the last file name. */
function newSessionId(): string {
  // Milliseconds included: two sessions made in the same second still sort in creation order.
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
