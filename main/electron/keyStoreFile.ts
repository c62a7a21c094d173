import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore } from '../settings/keyStore';

/**
 * How the window's API key is kept, decided from what the platform's secret store offers. Plain
 * functions (no electron import): keyStore.ts hands in safeStorage's answers and its cipher.
 */
export interface KeyStorageChoice {
  storage: 'secure' | 'unprotected';
  /** encrypted: by the OS secret store; obfuscated: safeStorage's basic_text; plain: no cipher at all. */
  encoding: 'encrypted' | 'obfuscated' | 'plain';
  warning?: string;
}

export interface SecretStoreFacts {
  platform: NodeJS.Platform;
  /** safeStorage.isAsyncEncryptionAvailable(). */
  encryptionAvailable: boolean;
  /** safeStorage.getSelectedStorageBackend() on Linux (basic_text, gnome_libsecret, kwallet…, unknown). */
  linuxBackend?: string;
}

export const NO_KEYRING_WARNING = 'This system has no secret store (no keyring is running), so a saved key would only be obfuscated, not encrypted.';
export const NO_ENCRYPTION_WARNING =
  'This system offers Keel no encryption at all, so a saved key would be kept as plain text in a file only your user can read.';

export function chooseKeyStorage(facts: SecretStoreFacts): KeyStorageChoice {
  if (!facts.encryptionAvailable) return { storage: 'unprotected', encoding: 'plain', warning: NO_ENCRYPTION_WARNING };
  // basic_text is a fixed, public key: obfuscation. An unknown backend is not trusted either.
  if (facts.platform === 'linux' && (facts.linuxBackend === 'basic_text' || facts.linuxBackend === 'unknown' || !facts.linuxBackend)) {
    return { storage: 'unprotected', encoding: 'obfuscated', warning: NO_KEYRING_WARNING };
  }
  return { storage: 'secure', encoding: 'encrypted' };
}

export interface KeyCipher {
  encrypt(plain: string): Promise<Buffer>;
  decrypt(sealed: Buffer): Promise<string>;
}

/**
 * The key in userData: api-key.enc through the cipher, or api-key.txt when there is none (the
 * person chose to store it unprotected; owner-only). Written through a temp file and a rename.
 */
export function createFileKeyStore(userData: string, choice: KeyStorageChoice, cipher: KeyCipher): KeyStore {
  const plain = choice.encoding === 'plain';
  const path = join(userData, plain ? 'api-key.txt' : 'api-key.enc');
  return {
    storage: choice.storage,
    ...(choice.warning ? { warning: choice.warning } : {}),
    async load() {
      if (!existsSync(path)) return undefined;
      if (plain) return readFileSync(path, 'utf8').trim() || undefined;
      try {
        return (await cipher.decrypt(readFileSync(path))) || undefined;
      } catch (error) {
        throw new Error(
          `The saved API key in ${path} could not be decrypted (${error instanceof Error ? error.message : String(error)}); the system's secret store may have changed. Enter the key again in Settings.`,
          { cause: error },
        );
      }
    },
    async save(key) {
      if (key === undefined) {
        rmSync(path, { force: true });
        return;
      }
      const temp = `${path}.tmp`;
      writeFileSync(temp, plain ? key : await cipher.encrypt(key), { mode: 0o600 });
      renameSync(temp, path);
    },
  };
}
