import { safeStorage } from 'electron';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore } from '../settings/keyStore';

/**
 * The API key, encrypted with the OS secret store through safeStorage's async API and kept in
 * userData/api-key.enc. On Linux without a keyring Chromium falls back to `basic_text`, which
 * only obfuscates: the store says so, and the window lets the person choose.
 */
export async function createSafeStorageKeyStore(userData: string): Promise<KeyStore> {
  const path = join(userData, 'api-key.enc');
  const available = await safeStorage.isAsyncEncryptionAvailable();
  const basicText = process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  const weak = !available || basicText;
  return {
    storage: weak ? 'unprotected' : 'secure',
    ...(weak
      ? { warning: 'This system has no secret store (no keyring is running), so a saved key would only be obfuscated, not encrypted.' }
      : {}),
    async load() {
      if (!existsSync(path)) return undefined;
      const { result } = await safeStorage.decryptStringAsync(readFileSync(path));
      return result || undefined;
    },
    async save(key) {
      if (key === undefined) {
        rmSync(path, { force: true });
        return;
      }
      const temp = `${path}.tmp`;
      writeFileSync(temp, await safeStorage.encryptStringAsync(key), { mode: 0o600 });
      renameSync(temp, path);
    },
  };
}
