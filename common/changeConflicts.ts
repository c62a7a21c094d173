import { z } from 'zod';

/**
 * Why an undo or redo left a file alone, as a code the window translates (the English reason
 * travels beside it for `keel run` and logs).
 */
export const CHANGE_CONFLICT_CODES = [
  'not_recorded',
  'copy_missing',
  'outside',
  'through_symlink',
  'not_a_file',
  'later_task',
  'unknown_since',
  'deleted_since',
  'created_since',
  'changed_since',
  'write_failed',
] as const;

export const ChangeConflictCodeSchema = z.enum(CHANGE_CONFLICT_CODES);
export type ChangeConflictCode = z.infer<typeof ChangeConflictCodeSchema>;
