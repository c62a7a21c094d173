import { readFileSync } from 'node:fs';
import ignore, { type Ignore } from 'ignore';

/** The rules of one .gitignore file, which apply to paths below the folder it is in. */
export interface IgnoreLayer {
  /** Workspace-relative folder with forward slashes; '' for the workspace root. */
  base: string;
  rules: Ignore;
}

/** Reads one ignore file into a layer; null when there is none (or it cannot be read). Synchronous, for the search workers' walk. */
export function loadIgnoreFileSync(file: string, base: string): IgnoreLayer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return { base, rules: ignore().add(text) };
}

/**
 * Whether git would ignore a workspace-relative path. Layers go from the root down; as in git a
 * deeper .gitignore overrides a shallower one, and the last rule that decides wins (so `!keep.log`
 * in a subfolder re-includes what the root excluded). A path inside an ignored folder is never
 * asked about: the walk does not enter ignored folders, as git does not.
 */
export function isIgnored(layers: readonly IgnoreLayer[], relative: string, isFolder: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    if (layer.base !== '' && relative !== layer.base && !relative.startsWith(`${layer.base}/`)) continue;
    const below = layer.base === '' ? relative : relative.slice(layer.base.length + 1);
    if (below === '') continue;
    // A trailing slash lets folder-only rules such as `build/` match the folder.
    const result = layer.rules.test(isFolder ? `${below}/` : below);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
