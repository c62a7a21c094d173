import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TaskOutcome } from '../../common/agentEvents';
import { folderNames } from '../platform/folderEntries';
import { parseJsonLinesSlice } from '../platform/jsonLines';
import { TranscriptRecordSchema, type TranscriptRecord } from './transcriptRecords';
import { sessionsFolder, sessionTranscriptPath } from './workspaceSession';

export interface SessionSummary {
  id: string;
  /** From the first task's text; "New session" before any. */
  title: string;
  createdAt: string;
  updatedAt: string;
  /** The last task's outcome, or null when none has ended. */
  lastOutcome: TaskOutcome | null;
  /** Steps of the plan not completed, as last stored; absent when the transcript does not say. */
  openSteps?: number;
  /** Steps not completed when the last task ended, as its end record counted. */
  openAtEnd?: number;
}

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 64 * 1024;
/** A task's text is at most 1,000,000 characters; JSON-escaped, its record stays well within this. */
const MAX_FIRST_TASK_BYTES = 16 * 1024 * 1024;

/**
 * The sessions of one folder, newest first; reads only the head and tail of each transcript.
 * Ids carry their creation time to the second only, so sessions started within one second are
 * ordered by the creation time their header records.
 */
export function listSessions(dataDir: string, workspace: string): SessionSummary[] {
  const dir = sessionsFolder(dataDir, workspace);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => summarise(join(dir, name)))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** Whether the folder has a session with this id (one a person could open). */
export function sessionExists(dataDir: string, workspace: string, sessionId: string): boolean {
  return sessionTranscriptPath(dataDir, workspace, sessionId) !== null;
}

function summarise(path: string): SessionSummary {
  const stat = statSync(path);
  const head = records(readSlice(path, 0, Math.min(HEAD_BYTES, stat.size)));
  const tail = stat.size > HEAD_BYTES ? records(readSlice(path, stat.size - TAIL_BYTES, TAIL_BYTES)) : head;
  const header = head.find((r) => r.type === 'session');
  const firstTask = findFirstTask(path, head, stat.size);
  const lastEndAt = tail.findLastIndex(isTaskEnd);
  const lastEnd = tail[lastEndAt];
  const openSteps = openStepsAfter(tail, lastEndAt);
  const openAtEnd = lastEnd && isTaskEnd(lastEnd) ? lastEnd.openSteps : undefined;
  return {
    id: basename(path, '.jsonl'),
    title: firstTask ? oneLine(firstTask.text) : 'New session',
    ...(firstTask ? { task: preview(firstTask.text) } : {}),
    createdAt: header?.createdAt ?? stat.birthtime.toISOString(),
    updatedAt: stat.mtime.toISOString(),
    lastOutcome: lastEnd && isTaskEnd(lastEnd) ? lastEnd.outcome : null,
    ...(openSteps === undefined ? {} : { openSteps }),
    ...(openAtEnd === undefined ? {} : { openAtEnd }),
  };
}

/**
 * The plan's open steps: from a plan version stored after the last task ended (the person marked
 * it done, say), else from what the end record counted.
 */
function openStepsAfter(tail: TranscriptRecord[], lastEndAt: number): number | undefined {
  const lastPlanAt = tail.findLastIndex((r) => r.type === 'plan');
  const plan = tail[lastPlanAt];
  if (lastPlanAt > lastEndAt && plan?.type === 'plan') {
    if (plan.open !== undefined) return plan.open;
    // Written before plan records counted their open steps: only a whole record can say.
    if (Array.isArray(plan.items)) return plan.items.filter((item: { status?: unknown } | null) => item?.status !== 'completed').length;
  }
  const end = tail[lastEndAt];
  return end && isTaskEnd(end) ? end.openSteps : undefined;
}

type TaskStart = Extract<TranscriptRecord, { type: 'task'; event: 'start' }>;
type TaskEnd = Extract<TranscriptRecord, { type: 'task'; event: 'end' }>;
const isTaskStart = (r: TranscriptRecord): r is TaskStart => r.type === 'task' && r.event === 'start';
const isTaskEnd = (r: TranscriptRecord): r is TaskEnd => r.type === 'task' && r.event === 'end';

/**
 * The first task's start record. Its line can be longer than the head (a pasted log), so when the
 * head holds no whole one, read on, doubling, until its line is complete.
 */
function findFirstTask(path: string, head: TranscriptRecord[], size: number): TaskStart | undefined {
  let found = head.find(isTaskStart);
  for (let length = HEAD_BYTES * 2; !found && length / 2 < size && length <= MAX_FIRST_TASK_BYTES; length *= 2) {
    found = records(readSlice(path, 0, Math.min(length, size))).find(isTaskStart);
  }
  return found;
}

function readSlice(path: string, start: number, length: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, length));
    const read = readSync(fd, buffer, 0, buffer.length, Math.max(0, start));
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whole lines that read as records; a slice cut mid-line loses only that line. */
function records(text: string): TranscriptRecord[] {
  return parseJsonLinesSlice(text, TranscriptRecordSchema);
}

/** The first task as the list's tooltip shows it: whole, unless it is a pasted log. */
const SESSION_TASK_PREVIEW = 600;
function preview(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > SESSION_TASK_PREVIEW ? `${trimmed.slice(0, SESSION_TASK_PREVIEW - 1)}…` : trimmed;
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Deleting a session moves its transcript to `trash/` in the data folder rather than erasing it:
 * a mistaken click loses nothing. Its helpers' transcripts (`<id>.helpers/`) go with it, first, so
 * a session in the trash never leaves them behind in its folder.
 */
export function trashSession(dataDir: string, workspace: string, sessionId: string): boolean {
  const path = sessionTranscriptPath(dataDir, workspace, sessionId);
  if (!path) return false;
  const trash = join(dataDir, 'trash');
  mkdirSync(trash, { recursive: true, mode: 0o700 });
  const trashed = join(trash, `${basename(sessionsFolder(dataDir, workspace))}-${sessionId}`);
  const helpers = join(dirname(path), `${sessionId}.helpers`);
  if (existsSync(helpers)) renameSync(helpers, `${trashed}.helpers`);
  renameSync(path, `${trashed}.jsonl`);
  return true;
}

/** A trashed transcript's name: the folder's key (see sessionsFolder), a dash, the session id. */
const TRASHED = /^([0-9a-f]{16})-(\w[\w.-]*)\.jsonl$/;

/**
 * Ids of the deleted sessions whose transcripts are in the trash and were not put back in their
 * folder's sessions by hand: sessions nobody can open any more.
 */
export async function deletedSessionIds(dataDir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const name of await folderNames(join(dataDir, 'trash'))) {
    const match = TRASHED.exec(name);
    if (match && !existsSync(join(dataDir, 'sessions', match[1]!, `${match[2]!}.jsonl`))) ids.push(match[2]!);
  }
  return ids;
}
