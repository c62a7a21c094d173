import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXTENSION_OF, IMAGE_MEDIA_TYPES, sniffImage, type ImageMediaType } from './imageFormat';

/** A picture kept in the data folder: `<sha256>.<ext>`, the name a transcript refers to it by. */
export type ImageRef = string;

const REF = /^([0-9a-f]{64})\.(png|jpg|gif|webp)$/;

/**
 * Pictures of the conversation (pasted, or read by the agent), kept once each by their sha256 in
 * `<data>/blobs/`, so a transcript line holds a name, not megabytes of base64. Owner-only: they
 * may show the person's screen. A blob is never changed once written.
 */
export class ImageBlobStore {
  readonly folder: string;

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'blobs');
  }

  /**
   * Keeps the bytes (once) and returns their name. A blob kept again is touched: the cleanup of a
   * deleted session that shared it then sees it as new and leaves it for its grace period.
   */
  put(bytes: Uint8Array, mediaType: ImageMediaType): ImageRef {
    const ref = `${createHash('sha256').update(bytes).digest('hex')}.${EXTENSION_OF[mediaType]}`;
    const target = path.join(this.folder, ref);
    try {
      const now = new Date();
      utimesSync(target, now, now);
      return ref;
    } catch {
      // Not there (or not ours to touch): write it.
    }
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // Written aside and renamed, so a crash never leaves half a picture under the final name.
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, target);
    return ref;
  }

  /** The picture's bytes and type, or null when the name is not a blob name or the blob is gone. */
  get(ref: string): { bytes: Buffer; mediaType: ImageMediaType } | null {
    // The name comes from a transcript a person could edit: it must stay a plain file name.
    if (!REF.test(ref)) return null;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(this.folder, ref));
    } catch {
      return null;
    }
    const mediaType = sniffImage(bytes);
    return mediaType && IMAGE_MEDIA_TYPES.includes(mediaType) ? { bytes, mediaType } : null;
  }
}

export function isImageRef(value: unknown): value is ImageRef {
  return typeof value === 'string' && REF.test(value);
}
