/*
 * What the rest of the core (the Changes view's tracker and its undo) may use of the file tools'
 * machinery: confinement to the workspace, text decoding as read_file does it, and atomic writes.
 * Everything else in tools/files is the tools' own.
 */
export { isInside, resolveInWorkspace, toRelative } from './confine';
export { bomLength, decode, sniff } from './encoding';
export { formatSize } from './text';
export { atomicWriteFile } from './atomicWrite';
