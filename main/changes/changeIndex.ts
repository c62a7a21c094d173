import { z } from 'zod';
import { readJsonLines } from '../platform/jsonLines';

export const INDEX_FORMAT = 1;

const hash = z.string().regex(/^[0-9a-f]{64}$/);

/** Workspace-relative, forward slashes, never climbing out: the index could have been edited by hand. */
const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.includes('\\') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), {
    message: 'not a plain workspace-relative path',
  });

/** A file as it was at one moment: its bytes by hash, or `null` when it did not exist. */
const snapshotFields = { hash: hash.nullable(), mode: z.number().int().nonnegative().nullable() };

const at = z.string();

export const ChangeRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('index'), format: z.number(), sessionId: z.string(), workspace: z.string(), at }),
  /** Written just before the task's first file change, so tasks that changed nothing leave no trace. */
  z.object({ type: z.literal('task'), taskId: z.string(), title: z.string(), at }),
  z.object({ type: z.literal('task_end'), taskId: z.string(), at }),
  /** The file before the task first touched it. */
  z.object({ type: z.literal('before'), taskId: z.string(), path: relativePath, ...snapshotFields, at }),
  /** The file as one tool call left it (read back after the call); the last one is the agent's version. */
  z.object({ type: z.literal('after'), taskId: z.string(), path: relativePath, ...snapshotFields, at }),
  /**
   * The person put the file back (undo) or re-applied the agent's version (redo). `replaced` keeps
   * what a forced action overwrote, so even that is not lost.
   */
  z.object({ type: z.enum(['undo', 'redo']), taskId: z.string(), path: relativePath, forced: z.boolean(), replaced: hash.nullable().optional(), at }),
]);

export type ChangeRecord = z.output<typeof ChangeRecordSchema>;
export type Snapshot = { hash: string | null; mode: number | null };

export interface IndexContents {
  records: ChangeRecord[];
  warnings: string[];
}

/** Reads the index; a damaged or unknown line is skipped with a warning rather than losing the rest. */
export function readIndex(file: string): IndexContents {
  return readJsonLines(file, ChangeRecordSchema, {
    damagedConsequence: '; the change it recorded cannot be undone from the Changes view',
    notARecord: 'is not a change record Keel understands',
  });
}
