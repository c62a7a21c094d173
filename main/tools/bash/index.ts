// The `bash` tool, and the pieces a terminal view can reuse: running a command in a pty with
// live output and a killable process tree, and shaping terminal output for reading.
export { bashTool, bashInputSchema, BASH_TOOL_NAME, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, type BashInput } from './bashTool';
export { runInPty, RUN_MARKER_VARIABLE, type PtyRunOptions, type PtyRunResult } from './runInPty';
export { OutputCollector, shapeOutput, DEFAULT_OUTPUT_LIMITS, type OutputLimits, type ShapedOutput } from './outputCollector';
export { cleanLine } from './cleanLine';
export { killProcessTree, type KillTreeOptions } from './killTree';
export { formatRunResult } from './formatResult';
