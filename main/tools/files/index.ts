import type { Tool } from '../types';
import { editFileTool } from './editFile';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { searchTextTool } from './searchText';
import { writeFileTool } from './writeFile';

export { editFileTool, listFilesTool, readFileTool, searchTextTool, writeFileTool };
export { resolveInWorkspace } from './confine';

/** The workspace file tools, in the order a model usually needs them. */
export const fileTools: Tool[] = [listFilesTool, searchTextTool, readFileTool, editFileTool, writeFileTool];
