// The open folder's two panes, in one chunk: the window's frame paints without them (see workspacePart.ts).
export { ChatPanel } from '../chat/ChatPanel';
export { PlanBoard } from '../plan/PlanBoard';
