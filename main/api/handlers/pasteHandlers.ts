import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes } from '../../../common/contract';
import { fail, ok, type Result } from '../../../common/result';
import { atomicWriteFile } from '../../tools/files/atomicWrite';
import { resolveInWorkspace } from '../../tools/files/confine';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

/** Where pasted texts too long for a message are kept, relative to the workspace. */
export const PASTES_FOLDER = '.keel/pastes';

/** A paste too long for a chat message becomes a file in the workspace the message can name. */
export function pasteHandlers(core: Pick<HandlerContext, 'currentSession'>): Pick<Handlers, 'paste.save'> {
  return {
    'paste.save': async ({ text }) => {
      const session = core.currentSession;
      if (!session) return fail(ErrorCodes.noWorkspace, 'Open a folder first: the pasted text is saved as a file in it.');
      return savePaste(session.workspace, text, new Date());
    },
  };
}

/**
 * Writes `text` to `.keel/pastes/paste-<time>.txt`, confined to the workspace like the agent's own
 * writes (a `.keel` that is a link out of the folder is refused), never over an existing file.
 * The folder gets a `.gitignore` of `*`, so a paste never shows in `git status` to be committed by
 * accident (the agent reads it by its path, which no ignore file hides).
 */
export async function savePaste(workspace: string, text: string, now: Date): Promise<Result<{ path: string }>> {
  const folder = await resolveInWorkspace(workspace, PASTES_FOLDER);
  if (!folder.ok) return fail(ErrorCodes.badRequest, `Could not save the paste: ${folder.message}`);
  try {
    await mkdir(folder.absolute, { recursive: true });
  } catch (error) {
    return fail(ErrorCodes.internal, `Could not create ${PASTES_FOLDER} in the workspace: ${(error as Error).message}. Check the folder's permissions.`);
  }
  await ignoreEverything(folder.absolute);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
  for (let attempt = 0; attempt < 100; attempt++) {
    const name = `paste-${stamp}${attempt === 0 ? '' : `-${attempt + 1}`}.txt`;
    const file = await resolveInWorkspace(workspace, `${PASTES_FOLDER}/${name}`);
    if (!file.ok) return fail(ErrorCodes.badRequest, `Could not save the paste: ${file.message}`);
    if (await exists(file.absolute)) continue;
    try {
      await atomicWriteFile(file.absolute, Buffer.from(text, 'utf8'));
    } catch (error) {
      return fail(ErrorCodes.internal, `Could not write ${file.relative}: ${(error as Error).message}. Check free space and the folder's permissions.`);
    }
    return ok({ path: file.relative });
  }
  return fail(ErrorCodes.internal, `Could not find a free name in ${PASTES_FOLDER}; remove old pastes there and try again.`);
}

/**
 * Writes `<folder>/.gitignore` only where there is none: a person's own file (or link) is theirs.
 * Not being able to is no reason to lose the paste, which is saved regardless.
 */
async function ignoreEverything(folder: string): Promise<void> {
  await writeFile(join(folder, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
