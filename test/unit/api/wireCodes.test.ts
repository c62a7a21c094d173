import { describe, expect, it } from 'vitest';
import type { IpcMain } from 'electron';
import { ErrorCodes } from '../../../common/errorCodes';
import type { KeelCore } from '../../../main/api/core';
import { bindIpc } from '../../../main/electron/ipc';
import { createUnreachableApi } from '../../../renderer/api/unreachableTransport';
import { IpcStandIn } from '../../support/electronIpcStandIn';

const known = new Set<string>(Object.values(ErrorCodes));

describe('every code a client sees is one of common/errorCodes', () => {
  it('a page with no host: disconnected, with the reason as a detail', async () => {
    for (const reason of ['no_bridge', 'no_token'] as const) {
      const result = await createUnreachableApi(reason).request('settings.get', {});
      expect(result).toEqual({ ok: false, error: { code: ErrorCodes.disconnected, message: expect.any(String), details: { reason } } });
      expect(known.has(result.ok ? '' : result.error.code)).toBe(true);
    }
  });

  it('a request from a window Keel did not open: forbidden, and no handler runs', async () => {
    const ipc = new IpcStandIn();
    const core = { handlers: {} } as unknown as KeelCore;
    bindIpc(ipc.ipcMain as unknown as IpcMain, core, () => false);
    const result = (await ipc.invoke(`keel:settings.get`, {})) as { ok: boolean; error: { code: string } };
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe(ErrorCodes.forbidden);
  });
});
