import { isHelperEnded, type HelperInfo } from '../../common/helpers';
import type { StoredRecord } from './transcript';
import { HelperRecordSchema } from './transcriptRecords';

/**
 * A session's helpers as their last records left them. One that had not ended when Keel stopped
 * is shown as stopped, with no worktree (a crash's worktree is swept). One that ended with its
 * worktree kept says so; the pool gives it its worktree back, or clears that if it is gone.
 */
export function restoreHelpers(records: readonly StoredRecord[]): HelperInfo[] {
  const last = new Map<string, { helper: HelperInfo; at: string }>();
  for (const stored of records) {
    if (stored.type !== 'helper') continue;
    // A record of the wrong shape (a newer Keel's) is left out, never repaired.
    const record = HelperRecordSchema.safeParse(stored);
    if (record.success) last.set(record.data.helper.id, record.data);
  }
  return [...last.values()].map(({ helper, at }) =>
    isHelperEnded(helper.state)
      ? helper
      : {
          ...helper,
          state: 'stopped',
          tool: undefined,
          worktreeKept: false,
          reasonCode: 'internal',
          reason: 'Keel stopped while it worked.',
          endedAt: at,
        },
  );
}
