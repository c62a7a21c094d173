import { safeStorage } from 'electron';
import type { KeyStore } from '../settings/keyStore';
import { chooseKeyStorage, createFileKeyStore } from './keyStoreFile';

/**
 * The API key, encrypted with the OS secret store through safeStorage's async API and kept in
 * userData. On Linux without a keyring Chromium falls back to `basic_text`, which only
 * obfuscates: the store says so, and the window lets the person choose (keyStoreFile.ts).
 */
export async function createSafeStorageKeyStore(userData: string): Promise<KeyStore> {
  const choice = chooseKeyStorage({
    platform: process.platform,
    encryptionAvailable: await safeStorage.isAsyncEncryptionAvailable(),
    ...(process.platform === 'linux' ? { linuxBackend: safeStorage.getSelectedStorageBackend() } : {}),
  });
  return createFileKeyStore(userData, choice, {
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (sealed) => (await safeStorage.decryptStringAsync(sealed)).result,
  });
}
