#!/usr/bin/env node
// Fails when relative imports form a cycle, type-only imports included (`import type`,
// `export … from`, `import('…')` types), or cross a layer (FOLDER_RULES). Run by `npm run lint`
// after eslint. Usage:
//   node scripts/check-cycles.mjs [folder…]   (default: common main preload renderer bin scripts bench test)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Cycles known and owned elsewhere, reported but not failing (each a list of the files around it). */
const TOLERATED = [];

/**
 * The layers, by path from the project root: a file under `from` may import only under `allow`,
 * or nothing under `deny`. eslint.config.js says the same for the editor; this holds for every
 * file the graph sees, scripts and tests' fixtures aside.
 */
export const FOLDER_RULES = [
  { from: 'main/platform/', allow: ['main/platform/', 'common/'], why: 'main/platform/ imports no feature folder' },
  { from: 'renderer/', deny: ['main/'], why: 'the window never imports main (it has the contract)' },
  { from: 'main/', deny: ['renderer/'], why: 'main never imports the window' },
];

/** Every import that crosses a rule, as `{ from, to, why }` with paths from `root`. */
export function layerBreaches(graph, root, rules = FOLDER_RULES) {
  const breaches = [];
  const named = (file) => relative(root, file).split('\\').join('/');
  for (const [file, targets] of graph) {
    const from = named(file);
    for (const target of targets) {
      const to = named(target);
      for (const rule of rules) {
        if (!from.startsWith(rule.from)) continue;
        const crossed = rule.allow ? !rule.allow.some((path) => to.startsWith(path)) : rule.deny.some((path) => to.startsWith(path));
        if (crossed) breaches.push({ from, to, why: rule.why });
      }
    }
  }
  return breaches;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|jsx)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx', '.d.ts'];
// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`: any form names a dependency.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\1/g;

/** Every source file under the folders, skipping dependencies and build output. */
export function sourceFiles(folders) {
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (!['node_modules', 'out', 'dist', '.git'].includes(name)) walk(join(path, name));
    } else if (SOURCE.test(path)) files.push(resolve(path));
  };
  folders.forEach(walk);
  return files;
}

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The file a relative specifier names: as written, with an extension, `.js` spelled for `.ts`, or a folder's index. */
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    base.replace(/\.(m?)js$/, '.$1ts'),
    base.replace(/\.jsx?$/, '.tsx'),
    ...EXTENSIONS.map((ext) => join(base, `index${ext}`)),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

export function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const text = stripComments(readFileSync(file, 'utf8'));
    const targets = new Set();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveImport(file, match[2]);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Each cycle once, as the list of files around it (the first file repeated at the end). */
export function findCycles(graph) {
  const cycles = [];
  const seen = new Set();
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (file) => {
    state.set(file, 1);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 1) {
        const cycle = path.slice(path.indexOf(next));
        const key = [...cycle].sort().join('\n');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 2);
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const files = sourceFiles(folders.length ? folders : ['common', 'main', 'preload', 'renderer', 'bin', 'scripts', 'bench', 'test']);
  const named = (cycle) => cycle.map((file) => relative(process.cwd(), file).split('\\').join('/'));
  const tolerated = (cycle) => TOLERATED.some((known) => known.length === cycle.length - 1 && known.every((file) => named(cycle).includes(file)));
  const graph = importGraph(files);
  const breaches = layerBreaches(graph, process.cwd());
  for (const { from, to, why } of breaches) console.error(`Layer crossed: ${from} imports ${to} (${why}).`);
  const found = findCycles(graph);
  for (const cycle of found.filter(tolerated)) console.warn(`Import cycle (tolerated for now): ${named(cycle).join(' → ')}`);
  const cycles = found.filter((cycle) => !tolerated(cycle));
  for (const cycle of cycles) console.error(`Import cycle: ${named(cycle).join(' → ')}`);
  if (cycles.length > 0 || breaches.length > 0) {
    if (cycles.length > 0)
      console.error(
        `${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} (type-only imports count too). Move what both sides need into a module of its own.`,
      );
    process.exit(1);
  }
  console.log(`No import cycles among ${files.length} files, and no layer crossed.`);
}
