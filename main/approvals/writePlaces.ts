import nodePath, { type PlatformPath } from 'node:path';
import { resolveInWorkspace } from '../tools/files/confine';
import type { Write } from './shellLine';
import type { ShellKind } from './shellWords';

export interface PlaceContext {
  workspace: string;
  shell: ShellKind;
  /** The path flavour of the machine the command runs on (path.win32 for PowerShell on Windows). */
  path?: PlatformPath;
  /** Whether a `cd` in the line makes relative targets unplaceable. */
  changesDirectory: boolean;
}

/** `harmless`: a device that discards or shows output; `outside`: outside the workspace, or where we cannot tell. */
export type Place = 'harmless' | 'inside' | 'outside';

const POSIX_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Where a write lands, judged from its words alone. */
export function lexicalPlace(write: Write, context: PlaceContext): { place: Place; absolute?: string } {
  const pathApi = context.path ?? nodePath;
  const { text, expands, tilde, brace, glob } = write.target;
  if (context.shell === 'powershell') {
    if (/^\$null$/i.test(text) || /^nul$/i.test(text)) return { place: 'harmless' };
    // env:, HKCU:, function: … are providers, not folders; `C:` alone is a drive's current folder.
    if (/^[a-z]{2,}:/i.test(text) || /^[a-z]:(?![\\/])/i.test(text)) return { place: 'outside' };
    if (/^[\\/]{2}/.test(text)) return { place: 'outside' };
  } else if (!expands && POSIX_DEVICES.test(text)) return { place: 'harmless' };
  if (text === '' || expands || tilde || brace) return { place: 'outside' };
  // `.*` can match `..` in some shells.
  if (glob && /(^|[\\/])\.[*?[]/.test(text)) return { place: 'outside' };
  if (!pathApi.isAbsolute(text) && context.changesDirectory) return { place: 'outside' };
  const absolute = pathApi.resolve(context.workspace, text);
  const rel = pathApi.relative(context.workspace, absolute);
  const inside = rel === '' || (rel !== '..' && !rel.startsWith(`..${pathApi.sep}`) && !pathApi.isAbsolute(rel));
  return inside ? { place: 'inside', absolute } : { place: 'outside', absolute };
}

/** As lexicalPlace, and on this machine's own paths also through symbolic links (a link to /etc inside the workspace is outside). */
export async function placeOf(write: Write, context: PlaceContext): Promise<Place> {
  const lexical = lexicalPlace(write, context);
  if (lexical.place !== 'inside' || (context.path !== undefined && context.path !== nodePath)) return lexical.place;
  const resolved = await resolveInWorkspace(context.workspace, lexical.absolute!);
  return resolved.ok ? 'inside' : 'outside';
}
