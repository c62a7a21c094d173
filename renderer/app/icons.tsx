/*
 * Kept only for renderer/terminal/TerminalTabs.tsx, which the terminal rewrite owns: the icons live
 * in renderer/ui/icons.tsx. Delete this file once that import points there.
 */
export { CloseIcon } from '../ui/icons';
