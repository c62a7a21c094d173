/**
 * ask: ask before commands and file changes. auto_edits: file changes inside the workspace go
 * ahead, commands are asked. full_auto: nothing is asked. (No zod here: the window imports it.)
 */
export const APPROVAL_MODES = ['ask', 'auto_edits', 'full_auto'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'auto_edits';
