import { createHash, randomBytes } from 'node:crypto';
import { constants, copyFileSync, createReadStream, mkdirSync, rmSync } from 'node:fs';
import { copyFile, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const HASH = /^[0-9a-f]{64}$/;

/**
 * Bytes of files the agent touched, kept by their sha256 so a file written the same way twice (or
 * restored and written again) is stored once. A blob is never changed after it is in place.
 *
 * Copies go through `staging/` on the same file system, so a blob appears under its name whole or
 * not at all; anything left in `staging/` by a crash is removed when the store is opened.
 */
export class BlobStore {
  readonly blobs: string;
  private readonly staging: string;

  constructor(folder: string) {
    this.blobs = path.join(folder, 'blobs');
    this.staging = path.join(folder, 'staging');
    // Owner-only: these are copies of the person's code.
    mkdirSync(this.blobs, { recursive: true, mode: 0o700 });
    rmSync(this.staging, { recursive: true, force: true });
    mkdirSync(this.staging, { recursive: true, mode: 0o700 });
  }

  /**
   * Copies a file right now, synchronously: the tool is about to replace it and does not wait for
   * us. A kernel copy (a reflink where the file system has them) keeps even a large file off the
   * JS heap; `commit` hashes it later, once the tool call is over.
   */
  stageSync(absolutePath: string): string {
    const staged = this.stagingName();
    copyFileSync(absolutePath, staged, constants.COPYFILE_FICLONE);
    return staged;
  }

  /** Moves a staged copy to its content address and returns the hash. */
  async commit(staged: string): Promise<string> {
    const hash = await hashFile(staged);
    const target = this.pathOf(hash);
    if (await exists(target)) await rm(staged, { force: true });
    else await rename(staged, target);
    return hash;
  }

  /** Keeps the current bytes of a file; the hash is of the copy, so it always matches what was kept. */
  async keep(absolutePath: string): Promise<string> {
    const staged = this.stagingName();
    try {
      await copyFile(absolutePath, staged, constants.COPYFILE_FICLONE);
      return await this.commit(staged);
    } catch (error) {
      await rm(staged, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async read(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash));
  }

  async size(hash: string): Promise<number> {
    return (await stat(this.pathOf(hash))).size;
  }

  async has(hash: string): Promise<boolean> {
    return exists(this.pathOf(hash));
  }

  discard(staged: string): void {
    rmSync(staged, { force: true });
  }

  private pathOf(hash: string): string {
    // The hash comes from the index, which a person could edit: it must stay a plain file name.
    if (!HASH.test(hash)) throw new Error(`"${hash}" is not a sha256 hash.`);
    return path.join(this.blobs, hash);
  }

  private stagingName(): string {
    return path.join(this.staging, `${process.pid}-${randomBytes(8).toString('hex')}`);
  }
}

/** sha256 of a file, streamed so a large file is never read whole. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
