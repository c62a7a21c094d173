import { useEffect, useState } from 'react';
import type { SandboxStatus } from '../../common/sandbox';
import { api } from '../api';

/** The open folder's sandbox state: `sandbox.status` when the session changes, then `sandbox.changed` as it happens. */
export function useSandboxStatus(sessionId: string | null): SandboxStatus | null {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const unsubscribe = api.on('sandbox.changed', (next) => {
      heard = true;
      setStatus(next);
    });
    void api.request('sandbox.status', {}).then((result) => {
      // An event that came while the request was on its way is newer than its answer.
      if (live && result.ok && !heard) setStatus(result.value);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId]);
  return status;
}
