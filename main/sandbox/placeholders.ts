import { readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * What the runtime may mount over while a command runs: protected names that did not exist are
 * created empty in the workspace as mount points. Mirrors the runtime's own list, so the file
 * tools and Changes can hide them and a sweep can remove what a crash left.
 */
export const PROTECTED_FILES = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json'];
export const PROTECTED_DIRECTORIES = ['.vscode', '.idea', '.claude/commands', '.claude/agents', '.claude'];

/** Absolute paths in the workspace that a command's run may leave as empty placeholders (those absent now). */
export function placeholderCandidates(workspace: string): string[] {
  return [...PROTECTED_FILES, ...PROTECTED_DIRECTORIES].map((name) => path.join(workspace, name)).filter((file) => !exists(file));
}

/** Whether a path is an empty file or folder the sandbox made, given the candidates noted before the run. */
export function isPlaceholder(absolute: string, candidates: ReadonlySet<string>): boolean {
  if (!candidates.has(absolute)) return false;
  try {
    const info = statSync(absolute);
    if (info.isFile()) return info.size === 0;
    return info.isDirectory() && readdirSync(absolute).length === 0;
  } catch {
    return false;
  }
}

/** Removes the candidates that are still empty placeholders; deepest first, so `.claude/commands` goes before `.claude`. */
export function removePlaceholders(candidates: readonly string[]): string[] {
  const removed: string[] = [];
  const set = new Set(candidates);
  for (const file of [...candidates].sort((a, b) => b.length - a.length)) {
    if (!isPlaceholder(file, set)) continue;
    try {
      if (statSync(file).isDirectory()) rmdirSync(file);
      else unlinkSync(file);
      removed.push(file);
    } catch {
      // gone already, or no longer ours to remove
    }
  }
  return removed;
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
