import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ELECTRON_CHANNEL_PREFIX, eventChannels, requestChannels } from '../../../common/contract';
import { KeelCore } from '../../../main/api/core';
import { exposeKeelBridge, type KeelIpcBridge } from '../../../preload/bridge';
import { IpcStandIn } from '../../support/electronIpcStandIn';

// The preload bridge with stand-ins for contextBridge and the two ends of Electron IPC, wired to
// the real main side (bindIpc, forwardEvents) and a real KeelCore: what the page can reach.

const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setUp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-bridge-data-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bridge-ws-')));
  const core = new KeelCore({ dataDir, host: 'electron', version: 'test' });
  const ipc = new IpcStandIn();
  const exposed = new Map<string, unknown>();
  exposeKeelBridge({ exposeInMainWorld: (key, api) => void exposed.set(key, api) }, ipc);
  const unbind = ipc.bind(core);
  cleanups.push(() => {
    unbind();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });
  return { core, ipc, exposed, folder, bridge: exposed.get('keelIpc') as KeelIpcBridge };
}

describe('the preload bridge', () => {
  it('puts one object, keelIpc, in the page, with request, on and the terminal byte path only', () => {
    const { exposed, bridge } = setUp();
    expect([...exposed.keys()]).toEqual(['keelIpc']);
    expect(Object.keys(bridge).sort()).toEqual(['on', 'request', 'terminalOutput']);
    expect(Object.keys(bridge.terminalOutput).sort()).toEqual(['ack', 'on']);
  });

  it('carries a contract request to main and its answer back', async () => {
    const { bridge, ipc, folder } = setUp();
    expect(await bridge.request('app.info', {})).toMatchObject({ ok: true, value: { host: 'electron', version: 'test' } });
    expect(await bridge.request('workspace.open', { path: folder })).toMatchObject({ ok: true, value: { path: folder } });
    // Main validates the payload, whatever the page sends.
    expect(await bridge.request('workspace.open', { path: 42 })).toMatchObject({ ok: false });
    expect(ipc.invoked).toEqual([`${ELECTRON_CHANNEL_PREFIX}app.info`, `${ELECTRON_CHANNEL_PREFIX}workspace.open`, `${ELECTRON_CHANNEL_PREFIX}workspace.open`]);
  });

  it('lets no other channel through: nothing is sent to main', async () => {
    const { bridge, ipc } = setUp();
    const refused = [
      'fs.readFile',
      'keel:app.info',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '',
      'app.info ',
      'APP.INFO',
      42,
      null,
      undefined,
    ];
    for (const channel of refused) {
      expect(await bridge.request(channel as string, {}), String(channel)).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
    expect(ipc.invoked).toEqual([]);
  });

  it('has main answer every contract request channel (none is left unbound)', () => {
    const { ipc } = setUp();
    expect([...ipc.handlers.keys()].sort()).toEqual(requestChannels.map((channel) => ELECTRON_CHANNEL_PREFIX + channel).sort());
  });

  it('refuses a request that does not come from the window', async () => {
    const { ipc } = setUp();
    const handler = ipc.handlers.get(`${ELECTRON_CHANNEL_PREFIX}app.info`)!;
    expect(await handler({ sender: { another: 'window' } }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('delivers contract events as their payload only, and stops when unsubscribed', async () => {
    const { bridge, ipc, folder } = setUp();
    const seen: unknown[] = [];
    const unsubscribe = bridge.on('workspace.changed', (payload) => seen.push(payload));
    await bridge.request('workspace.open', { path: folder });
    expect(seen).toEqual([expect.objectContaining({ path: folder })]);
    unsubscribe();
    expect(ipc.renderer.listenerCount(`${ELECTRON_CHANNEL_PREFIX}workspace.changed`)).toBe(0);
  });

  it('subscribes to no channel outside the contract', () => {
    const { bridge, ipc } = setUp();
    for (const event of ['fs.changed', 'keel:workspace.changed', '__proto__', 'constructor', 'ELECTRON_BROWSER_WINDOW_ALERT']) {
      const unsubscribe = bridge.on(event, () => undefined);
      expect(typeof unsubscribe).toBe('function');
      unsubscribe();
    }
    expect(ipc.renderer.eventNames()).toEqual([]);
    for (const event of eventChannels) bridge.on(event, () => undefined);
    expect(ipc.renderer.eventNames().sort()).toEqual(eventChannels.map((event) => ELECTRON_CHANNEL_PREFIX + event).sort());
  });
});
