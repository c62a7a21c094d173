import type Picomatch from 'picomatch';
import { lazyPackage } from './lazyPackage';

/** Loaded by the first glob: a search worker without one never pays for it. */
const picomatch = lazyPackage<typeof Picomatch>('picomatch');

export type GlobMatcher = (relativePath: string) => boolean;

/**
 * A matcher for paths relative to the searched folder. A pattern without a slash matches the file
 * name at any depth (`*.ts`, as in .gitignore and ripgrep's --glob); dotfiles match like any file.
 */
export function globMatcher(pattern: string): GlobMatcher | { error: string } {
  const cleaned = pattern.trim().replace(/^(\.\/)+/, '');
  if (cleaned === '') return { error: 'The glob pattern is empty. Use for example "**/*.ts", "*.md" or "src/**".' };
  try {
    // picomatch's basename option would also apply to patterns with a slash; only slash-less ones get it.
    return picomatch()(cleaned, { dot: true, basename: !cleaned.includes('/') });
  } catch (error) {
    return {
      error: `The glob pattern "${pattern}" is not valid (${error instanceof Error ? error.message : String(error)}). Use for example "**/*.ts", "*.md" or "src/**".`,
    };
  }
}
