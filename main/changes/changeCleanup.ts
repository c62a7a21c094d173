import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { folderNames } from '../platform/folderEntries';
import { serialQueue } from '../platform/serialQueue';
import { deletedSessionIds } from '../session/sessionIndex';

/** What a folder being erased is renamed to first; a session id never starts with a dot. */
const ERASING = '.erasing-';
const SESSION_ID = /^\w[\w.-]*$/;

/**
 * Erases the saved copies of deleted sessions (`<dataDir>/changes/<sessionId>/`): copies of the
 * person's files, possibly secrets, that only that session's Changes view could undo with, and a
 * deleted session can no longer be opened.
 *
 * A folder is first renamed to `changes/.erasing-…` (one atomic step: `changes/<id>` is there
 * whole or not at all) and then erased. What a crash or a failure leaves behind, a session folder
 * whose transcript is in the trash or an `.erasing-` folder, is finished by the sweep at the next
 * start; the Changes view only ever opens the open session's own folder, so it never meets either.
 */
export class ChangeCleanup {
  private readonly folder: string;
  private readonly log: (message: string) => void;
  private readonly inOrder: (work: () => Promise<void>) => Promise<void>;

  constructor(
    private readonly dataDir: string,
    options: { log?: ((message: string) => void) | undefined } = {},
  ) {
    this.folder = join(dataDir, 'changes');
    this.log = options.log ?? (() => undefined);
    this.inOrder = serialQueue((error) => this.log(`warning: could not erase the saved copies of deleted sessions' changes: ${(error as Error).message}`));
  }

  /** Erases one deleted session's copies; never throws. Call it once the session's transcript is in the trash. */
  eraseSession(sessionId: string): Promise<void> {
    return this.inOrder(() => this.erase(sessionId));
  }

  /** Erases the copies of every session in the trash, and what an interrupted erase left; never throws. */
  sweep(): Promise<void> {
    return this.inOrder(async () => {
      const names = await folderNames(this.folder);
      for (const name of names.filter((n) => n.startsWith(ERASING))) await this.eraseAside(join(this.folder, name));
      const present = new Set(names);
      for (const id of await deletedSessionIds(this.dataDir)) if (present.has(id)) await this.erase(id);
    });
  }

  private async erase(sessionId: string): Promise<void> {
    // Never joined into a path unless it is a plain name: `..` would name the data folder itself.
    if (!SESSION_ID.test(sessionId)) return;
    const folder = join(this.folder, sessionId);
    const aside = join(this.folder, `${ERASING}${sessionId}-${randomBytes(4).toString('hex')}`);
    try {
      await rename(folder, aside);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Nothing saved, or another Keel on this data folder erased it first.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      this.log(
        `warning: could not erase ${folder}, the saved copies of files the agent changed in deleted session ${sessionId} (${(error as Error).message}); Keel tries again at its next start, or delete the folder yourself.`,
      );
      return;
    }
    await this.eraseAside(aside);
  }

  private async eraseAside(aside: string): Promise<void> {
    try {
      await rm(aside, { recursive: true, force: true });
    } catch (error) {
      this.log(
        `warning: could not erase ${aside}, saved copies of files the agent changed in a deleted session (${(error as Error).message}); Keel tries again at its next start, or delete the folder yourself.`,
      );
    }
  }
}
