import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../../../main/tools/types';

/** A real temporary folder (symlinks resolved, as the app passes it) with helpers to fill it. */
export interface TempWorkspace {
  root: string;
  /** Real folder next to the workspace, for escape attempts. */
  outside: string;
  context: ToolContext & { changed: string[] };
  file(relative: string, content: string | Uint8Array): string;
  cleanup(): void;
}

export function makeWorkspace(): TempWorkspace {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'keel-files-')));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const changed: string[] = [];
  return {
    root,
    outside,
    context: { workspace: root, signal: new AbortController().signal, beforeFileChange: (p) => changed.push(p), changed },
    file(relative, content) {
      const absolute = path.join(root, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, content);
      return absolute;
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
