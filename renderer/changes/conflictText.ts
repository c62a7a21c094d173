import type { ChangeConflictCode } from '../../common/changeConflicts';
import type { ChangeActionResult } from '../../common/contract';
import type { Translate } from '../i18n/translate';
import type { MessageKey } from '../i18n/messages';

/** Codes whose wording depends on whether the person undid or redid. */
const BY_DIRECTION: ReadonlySet<ChangeConflictCode> = new Set([
  'later_task',
  'unknown_since',
  'deleted_since',
  'created_since',
  'changed_since',
  'write_failed',
]);

/** Why a file was left alone, in the person's language; main's English when it sent no code. */
export function conflictText(conflict: ChangeActionResult['conflicts'][number], action: 'undo' | 'redo', t: Translate): string {
  if (!conflict.code) return conflict.reason;
  const variant = BY_DIRECTION.has(conflict.code) ? `.${action}` : conflict.code === 'not_a_file' ? `.${conflict.params?.type ?? 'special'}` : '';
  const key = `changes.conflict.${conflict.code}${variant}` as MessageKey;
  return t(key, { ...conflict.params, path: conflict.path });
}
