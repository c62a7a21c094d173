import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import { completeFolderPath } from '../../session/folderCompletion';
import { readRecentFolders } from '../../session/recentFolders';
import type { HandlerContext } from '../handlerContext';
import { workspaceInfo } from '../snapshots';
import type { Handlers } from '../dispatch';

export function workspaceHandlers(
  core: Pick<HandlerContext, 'currentSession' | 'openWorkspace' | 'options'>,
): Pick<Handlers, 'app.info' | 'workspace.current' | 'workspace.open' | 'workspace.choose' | 'folders.recent' | 'folders.complete'> {
  const { options } = core;
  return {
    'app.info': () => ok({ version: options.version, host: options.host, dataDir: options.dataDir, nativeFolderPicker: options.chooseFolder !== undefined }),
    'workspace.current': () => ok(core.currentSession ? workspaceInfo(core.currentSession) : null),
    'workspace.open': ({ path }) => core.openWorkspace(path),
    'workspace.choose': async () => {
      if (!options.chooseFolder) return fail(ErrorCodes.unsupported, 'This window cannot show a folder picker. Type the folder path instead.');
      const folder = await options.chooseFolder();
      return folder === null ? ok(null) : core.openWorkspace(folder);
    },
    'folders.recent': () => ok(readRecentFolders(options.dataDir)),
    'folders.complete': async ({ partial }) => ok(await completeFolderPath(partial)),
  };
}
