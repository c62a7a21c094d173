import type { HelperInfo } from '../../common/helpers';
import type { Translate } from '../i18n/translate';
import type { HelperLive } from './helperState';

/** A helper's live state in the person's words: "running bash", "waiting for approval of edit_file". */
export function liveStateText(live: HelperLive, t: Translate): string {
  switch (live.state) {
    case 'tool':
      return live.tool ? t('helpers.state.tool', { tool: live.tool }) : t('helpers.state.toolUnnamed');
    case 'waiting_approval':
      return live.tool ? t('helpers.state.waiting_approvalTool', { tool: live.tool }) : t('helpers.state.waiting_approval');
    default:
      return t(`helpers.state.${live.state}`);
  }
}

/** Why an ended helper stopped, in the window's language when main gave a code, else main's words. */
export function reasonText(info: HelperInfo, t: Translate): string | null {
  if (info.reasonCode) return t(`helpers.reason.${info.reasonCode}`);
  return info.reason ?? null;
}

/** What became of an ended helper's changes, when there is nothing left for the person to do. */
export function mergeText(info: HelperInfo, t: Translate): string | null {
  switch (info.merge) {
    case 'merged':
      return t('helpers.merged');
    case 'nothing':
      return t('helpers.mergedNothing');
    case 'discarded':
      return t('helpers.discarded');
    default:
      return null;
  }
}
