// The `bash` tool, and the pieces a terminal view can reuse: running a command in a pty with
// live output, and shaping terminal output for reading. Killing a process tree is the platform's
// (main/platform/killTree.ts): the terminal, MCP and this tool all use it.
export { bashTool, bashInputSchema, BASH_TOOL_NAME, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, type BashInput } from './bashTool';
export { runInPty, RUN_MARKER_VARIABLE, type PtyRunOptions, type PtyRunResult } from './runInPty';
export { OutputCollector, shapeOutput, DEFAULT_OUTPUT_LIMITS, type OutputLimits, type ShapedOutput } from './outputCollector';
export { cleanLine } from './cleanLine';
export { formatRunResult } from './formatResult';
