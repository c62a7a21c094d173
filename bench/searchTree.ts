import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sized } from './quick';

const TREE_VERSION = 1;
const FOLDERS = sized(200, 20);
const FILES_PER_FOLDER = 100;

/** A tree of ≥ 20,000 source-like files and ≥ 150 MB (a tenth of it with --quick), made once and kept in the temp folder. */
export function benchTree(): { root: string; files: number; bytes: number } {
  const root = join(tmpdir(), `keel-bench-search-v${TREE_VERSION}${FOLDERS === 200 ? '' : `-${FOLDERS}`}`);
  const marker = `${root}.done`;
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as { root: string; files: number; bytes: number };
  const building = `${root}.building`;
  rmSync(building, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
  console.log(`building the search tree in ${root} (once)…`);
  const random = seeded(42);
  const words = [
    'const',
    'let',
    'value',
    'result',
    'items',
    'config',
    'render',
    'update',
    'state',
    'props',
    'index',
    'length',
    'return',
    'await',
    'async',
    'import',
    'export',
    'default',
    'string',
    'number',
    'options',
    'handler',
    'request',
    'response',
    'error',
    'data',
    'user',
    'session',
    'token',
    'cache',
    'buffer',
  ];
  const word = () => words[Math.floor(random() * words.length)]!;
  const line = (extension: string) => {
    const roll = random();
    if (roll < 0.04) return `import { ${word()}, ${word()} } from './${word()}';`;
    if (roll < 0.05 && extension === 'js') return `class ${word()}${Math.floor(random() * 1000)}Handler extends Base {`;
    if (roll < 0.1) return `  // TODO: ${word()} ${word()} ${word()} when ${word()} is ${word()}`;
    if (roll < 0.3) return `export function ${word()}${Math.floor(random() * 100)}(${word()}, ${word()}) {`;
    return `  ${word()}.${word()} = ${word()}(${word()}, ${Math.floor(random() * 1e6)}) + ${word()}.${word()};`;
  };
  const extensions = ['ts', 'js', 'js', 'md', 'json', 'py'];
  let files = 0;
  let bytes = 0;
  mkdirSync(building, { recursive: true });
  writeFileSync(join(building, '.gitignore'), 'dist/\n*.log\n');
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = join(building, `pkg${Math.floor(folder / 10)}`, `mod${folder % 10}`, folder % 3 === 0 ? 'dist' : 'src');
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const extension = extensions[file % extensions.length]!;
      const lines: string[] = [];
      const target = 800 + Math.floor(random() * random() * 30_000);
      let size = 0;
      while (size < target) {
        const next = line(extension);
        lines.push(next);
        size += next.length + 1;
      }
      const content = `${lines.join('\n')}\n`;
      writeFileSync(join(dir, `file${file}.${file % 50 === 49 ? 'log' : extension}`), content);
      files++;
      bytes += Buffer.byteLength(content);
    }
  }
  const info = { root, files, bytes };
  renameSync(building, root);
  writeFileSync(marker, JSON.stringify(info));
  return info;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
