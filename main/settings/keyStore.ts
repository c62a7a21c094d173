/**
 * Where a key typed in the window is kept. The Electron host gives one backed by the OS secret
 * store (safeStorage); `keel web` and `keel run` keep it in the owner-only settings file.
 */
export interface KeyStore {
  readonly storage: 'secure' | 'plain_file' | 'unprotected';
  /** Why the store is weaker than it looks, when it is (Linux without a keyring: basic_text). */
  readonly warning?: string;
  load(): Promise<string | undefined>;
  save(key: string | undefined): Promise<void>;
}
