import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsPath, writeSettingsFile } from '../../../main/settings/modelSettings';
import { addNetworkAllowed, listedNetworkHosts } from '../../../main/settings/networkSettings';
import { SettingsService, settingsFileKeyStore } from '../../../main/settings/settingsService';

// Where the person's host list lives: the settings file's network.allow, plus KEEL_NETWORK_ALLOW.

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'keel-network-settings-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('network.allow', () => {
  it('lists the file’s hosts and the environment’s, read fresh each time', () => {
    expect(listedNetworkHosts(dataDir, {})).toEqual([]);
    writeSettingsFile(dataDir, { network: { allow: ['intranet.corp'] } });
    expect(listedNetworkHosts(dataDir, { KEEL_NETWORK_ALLOW: '127.0.0.1, ::1' })).toEqual(['intranet.corp', '127.0.0.1', '::1']);
  });

  it('"allow always" adds the host to the file once, keeping the other settings', () => {
    writeSettingsFile(dataDir, { model: 'claude-test' });
    addNetworkAllowed(dataDir, 'docs.example.com');
    addNetworkAllowed(dataDir, 'docs.example.com');
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8'))).toEqual({ model: 'claude-test', network: { allow: ['docs.example.com'] } });
  });

  it('the settings view shows both lists; an update keeps hosts in canonical form and refuses what is not a host', async () => {
    const settings = new SettingsService(dataDir, settingsFileKeyStore(dataDir), { KEEL_NETWORK_ALLOW: '10.0.0.5' });
    await settings.init();
    const saved = await settings.update({ networkAllow: ['Docs.Example.com.', '2130706433'] });
    expect(saved.ok && saved.value).toMatchObject({ networkAllow: ['docs.example.com', '127.0.0.1'], networkAllowFromEnvironment: ['10.0.0.5'] });
    const refused = await settings.update({ networkAllow: ['https://example.com/x', 'ok.org'] });
    expect(!refused.ok && refused.error).toMatchObject({ code: 'bad_request', details: { invalid: ['https://example.com/x'] } });
    expect(settings.view().networkAllow).toEqual(['docs.example.com', '127.0.0.1']);
  });
});
