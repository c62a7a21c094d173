import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_ENCRYPTION_WARNING, NO_KEYRING_WARNING, chooseKeyStorage, createFileKeyStore, type KeyCipher } from '../../../main/electron/keyStoreFile';
import { SettingsService } from '../../../main/settings/settingsService';

// What the window's key store decides from what the platform offers, and what it then writes.
// The cipher stands in for safeStorage (Electron only); the files are real.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-keystore-'));
  dirs.push(dir);
  return dir;
};

/** Reversible, and visibly not the key: enough to see which file holds what. */
const cipher: KeyCipher = {
  encrypt: async (plain) => Buffer.from(`sealed:${Buffer.from(plain).toString('base64')}`),
  decrypt: async (sealed) => {
    const text = sealed.toString();
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(text.slice('sealed:'.length), 'base64').toString();
  },
};

describe('choosing how to keep the key', () => {
  it('uses the OS secret store where there is one', () => {
    for (const facts of [
      { platform: 'darwin', encryptionAvailable: true },
      { platform: 'win32', encryptionAvailable: true },
      { platform: 'linux', encryptionAvailable: true, linuxBackend: 'gnome_libsecret' },
      { platform: 'linux', encryptionAvailable: true, linuxBackend: 'kwallet6' },
    ] as const) {
      expect(chooseKeyStorage(facts), JSON.stringify(facts)).toEqual({ storage: 'secure', encoding: 'encrypted' });
    }
  });

  it('calls Linux without a keyring (basic_text, or a backend it cannot name) unprotected, and says why', () => {
    for (const linuxBackend of ['basic_text', 'unknown', undefined]) {
      expect(chooseKeyStorage({ platform: 'linux', encryptionAvailable: true, linuxBackend })).toEqual({
        storage: 'unprotected',
        encoding: 'obfuscated',
        warning: NO_KEYRING_WARNING,
      });
    }
  });

  it('keeps a key as owner-only plain text, and says so, when no encryption is offered at all', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(chooseKeyStorage({ platform, encryptionAvailable: false, linuxBackend: 'basic_text' })).toEqual({
        storage: 'unprotected',
        encoding: 'plain',
        warning: NO_ENCRYPTION_WARNING,
      });
    }
  });
});

describe('the key file', () => {
  it('with a secret store: writes only ciphertext, owner-only, reads it back, and forgets it', async () => {
    const dir = tempDir();
    const store = createFileKeyStore(dir, chooseKeyStorage({ platform: 'darwin', encryptionAvailable: true }), cipher);
    expect(store.storage).toBe('secure');
    expect(store.warning).toBeUndefined();
    expect(await store.load()).toBeUndefined();
    await store.save('sk-ant-secret-1');
    const file = join(dir, 'api-key.enc');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-ant-secret-1');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.load()).toBe('sk-ant-secret-1');
    await store.save(undefined);
    expect(existsSync(file)).toBe(false);
    expect(await store.load()).toBeUndefined();
  });

  it('without any encryption: a plain owner-only file the cipher never sees', async () => {
    const dir = tempDir();
    const refusing: KeyCipher = {
      encrypt: () => Promise.reject(new Error('Encryption is not available.')),
      decrypt: () => Promise.reject(new Error('Decryption is not available.')),
    };
    const store = createFileKeyStore(dir, chooseKeyStorage({ platform: 'linux', encryptionAvailable: false }), refusing);
    expect(store.storage).toBe('unprotected');
    expect(store.warning).toBe(NO_ENCRYPTION_WARNING);
    await store.save('sk-ant-secret-2');
    expect(readFileSync(join(dir, 'api-key.txt'), 'utf8')).toBe('sk-ant-secret-2');
    if (process.platform !== 'win32') expect(statSync(join(dir, 'api-key.txt')).mode & 0o777).toBe(0o600);
    expect(await store.load()).toBe('sk-ant-secret-2');
  });

  it('says what to do when a saved key cannot be decrypted any more', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'api-key.enc'), 'written by another keyring');
    const store = createFileKeyStore(dir, chooseKeyStorage({ platform: 'win32', encryptionAvailable: true }), cipher);
    await expect(store.load()).rejects.toThrow(/could not be decrypted.*Enter the key again in Settings/);
  });

  it('makes Settings refuse to save the key unprotected until the person chooses that', async () => {
    const dir = tempDir();
    const store = createFileKeyStore(dir, chooseKeyStorage({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' }), cipher);
    const settings = new SettingsService(dir, store, {});
    await settings.init();
    expect(settings.view().apiKey).toMatchObject({ storage: 'unprotected', storageWarning: NO_KEYRING_WARNING, set: false });
    const refused = await settings.update({ apiKey: 'sk-ant-secret-3' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'key_storage' } });
    expect(existsSync(join(dir, 'api-key.enc'))).toBe(false);
    const saved = await settings.update({ apiKey: 'sk-ant-secret-3', keyStorage: 'unprotected' });
    expect(saved).toMatchObject({ ok: true, value: { apiKey: { set: true, source: 'secure_storage' } } });
    expect(await store.load()).toBe('sk-ant-secret-3');
  });
});
