import { bashTool } from '../tools/bash';
import { fileTools } from '../tools/files';
import { webFetchTool } from '../tools/web/webFetch';
import type { AgentTool } from './toolRunner';

/** The tools every agent gets in its workspace, besides `todo`. */
export function workspaceTools(): AgentTool[] {
  return [...fileTools, bashTool as AgentTool, webFetchTool as AgentTool];
}
