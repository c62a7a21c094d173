/**
 * Files a person never means by an @-mention, even in a folder without a .gitignore: compiled
 * Python, caches of Python tools, and the desktop's own litter. The agent's search and list_files
 * still see them (they follow .gitignore alone); only the completion list leaves them out.
 */
const NOISE_FOLDERS = new Set(['__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache']);
const NOISE_NAMES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);
const NOISE_EXTENSIONS = ['.pyc', '.pyo'];

export function isBuildNoise(relative: string): boolean {
  const parts = relative.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (NOISE_NAMES.has(name) || NOISE_EXTENSIONS.some((extension) => name.endsWith(extension))) return true;
  return parts.slice(0, -1).some((folder) => NOISE_FOLDERS.has(folder));
}
