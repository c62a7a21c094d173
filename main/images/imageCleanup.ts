import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { folderNames } from '../platform/folderEntries';
import { serialQueue } from '../platform/serialQueue';
import { atomicWriteFile } from '../tools/files/atomicWrite';
import { refsInTranscript, stillReferenced } from './blobReferences';
import { ImageBlobStore, isImageRef, type ImageRef } from './imageBlobs';

/**
 * A picture written (or written again) this recently is left alone: another Keel on the same data
 * folder may have just kept it for a message whose transcript line is not written yet.
 */
export const IMAGE_GRACE_MS = 10 * 60 * 1000;

interface Journal {
  file: string;
  refs: ImageRef[];
}

/**
 * Removes the pictures of deleted sessions. Before a transcript goes to the trash, the pictures it
 * names are noted in `<data>/blob-cleanup/`; a sweep then removes each noted picture that no
 * remaining transcript names and that is older than the grace period, and forgets the note. What
 * must wait (too recent, or could not be removed) stays noted: retried when the grace period is
 * over, and at the next start, so a crash mid-delete leaves no orphan behind for ever.
 */
export class ImageCleanup {
  private readonly folder: string;
  private readonly blobs: ImageBlobStore;
  private readonly graceMs: number;
  private readonly log: (message: string) => void;
  private readonly inOrder: (work: () => Promise<void>) => Promise<void>;
  private retry: { timer: NodeJS.Timeout; at: number } | null = null;

  constructor(
    private readonly dataDir: string,
    options: { log?: ((message: string) => void) | undefined; graceMs?: number } = {},
  ) {
    this.folder = join(dataDir, 'blob-cleanup');
    this.blobs = new ImageBlobStore(dataDir);
    this.graceMs = options.graceMs ?? IMAGE_GRACE_MS;
    this.log = options.log ?? (() => undefined);
    this.inOrder = serialQueue((error) => this.log(`warning: could not remove the pictures of deleted sessions: ${(error as Error).message}`));
  }

  /** Notes the pictures a session's transcript names; call it before the transcript is moved away. */
  async noteDeletedSession(transcriptPath: string, sessionId: string): Promise<void> {
    try {
      const refs = await refsInTranscript(transcriptPath);
      if (refs.size === 0) return;
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await writeJournal(join(this.folder, `${sessionId}-${randomBytes(3).toString('hex')}.json`), [...refs]);
    } catch (error) {
      this.log(`warning: could not note the pictures of session ${sessionId} for removal (${(error as Error).message}); they stay in ${this.blobs.folder}.`);
    }
  }

  /** Removes what the notes allow; never throws. Sweeps run one at a time. */
  sweep(): Promise<void> {
    return this.inOrder(() => this.sweepOnce());
  }

  dispose(): void {
    if (this.retry) clearTimeout(this.retry.timer);
    this.retry = null;
  }

  private async sweepOnce(): Promise<void> {
    const journals = await this.readJournals();
    if (journals.length === 0) return;
    const candidates = new Set(journals.flatMap((journal) => journal.refs));
    const referenced = await stillReferenced(this.dataDir, candidates);
    const waiting = new Set<ImageRef>();
    let soonest = Infinity;
    for (const ref of candidates) {
      if (referenced.has(ref)) continue;
      const outcome = await this.removeIfOld(ref);
      if (outcome === 'removed') continue;
      waiting.add(ref);
      if (outcome !== 'failed') soonest = Math.min(soonest, outcome.waitMs);
    }
    for (const journal of journals) {
      const left = journal.refs.filter((ref) => waiting.has(ref));
      if (left.length === 0) await rm(journal.file, { force: true });
      else await writeJournal(journal.file, left);
    }
    if (soonest !== Infinity) this.retryIn(soonest);
  }

  private async removeIfOld(ref: ImageRef): Promise<'removed' | 'failed' | { waitMs: number }> {
    const file = join(this.blobs.folder, ref);
    try {
      const age = Date.now() - (await stat(file)).mtimeMs;
      // A clock set back makes a picture look new: it waits one grace period, not for ever.
      if (age < this.graceMs) return { waitMs: Math.min(this.graceMs, this.graceMs - age) };
      await unlink(file);
      return 'removed';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'removed';
      this.log(`warning: could not remove the picture ${file} of a deleted session (${(error as Error).message}); Keel tries again at its next start.`);
      return 'failed';
    }
  }

  private async readJournals(): Promise<Journal[]> {
    const names = await folderNames(this.folder);
    const journals: Journal[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const file = join(this.folder, name);
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as { refs?: unknown };
        const refs = Array.isArray(parsed.refs) ? parsed.refs.filter(isImageRef) : [];
        journals.push({ file, refs });
      } catch (error) {
        // Another Keel on this data folder finished it first.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        this.log(
          `warning: ${file} is not a list of pictures to remove (${(error as Error).message}); it was deleted, and the pictures it listed may stay in ${this.blobs.folder}.`,
        );
        await rm(file, { force: true });
      }
    }
    return journals;
  }

  private retryIn(waitMs: number): void {
    const at = Date.now() + waitMs;
    if (this.retry && this.retry.at <= at) return;
    if (this.retry) clearTimeout(this.retry.timer);
    // A second past the grace period, so the picture is old enough by then.
    const timer = setTimeout(() => {
      this.retry = null;
      void this.sweep();
    }, waitMs + 1000);
    // Waiting pictures must not keep `keel run` alive; the next start finishes them.
    timer.unref();
    this.retry = { timer, at };
  }
}

/** Written aside and renamed: a sweep (of this or another Keel) never reads half a note. */
function writeJournal(file: string, refs: ImageRef[]): Promise<void> {
  return atomicWriteFile(file, Buffer.from(JSON.stringify({ refs })), { mode: 0o600 });
}
