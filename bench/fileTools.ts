import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editFileTool, readFileTool } from '../main/tools/files';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const FILE_BYTES = sized(10, 1) * 1024 * 1024;
const WINDOW_LINES = 2000;
const REPEATS = sized(20, 4);
const WARMUP = sized(3, 1);
const MIN_REPEATS = sized(8, 3);
/** Per timed section, so the whole bench stays well under a minute on a loaded 2-core machine. */
const SECTION_BUDGET_MS = sized(10_000, 2_000);
const GOAL_RATIO = 2;

/**
 * read_file and edit_file on a 10 MB text file of short lines. read_file: a 2000-line window near
 * the middle and near the end (`offset`/`limit`), beside the naive way as baseline, a raw
 * `fs.readFile` of the whole file and a split into lines. edit_file: one unique line replaced,
 * beside a raw `fs.readFile` + `String.replace` + `fs.writeFile` (and, for scale, the same with an
 * fsync, as edit_file's atomic write has). Each is repeated, rotating which runs first. Prints
 * figures only; the temp folder is removed.
 */
export async function benchFileTools(): Promise<void> {
  heading(`File tools on a ${FILE_BYTES / 1024 / 1024} MB text file`);
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-files-')));
  try {
    const path = join(workspace, 'big.txt');
    const lineCount = writeBigFile(path);
    const context = { workspace, signal: new AbortController().signal };
    console.log(
      `${lineCount.toLocaleString('en')} lines of ~${Math.round(FILE_BYTES / lineCount)} bytes; up to ${REPEATS} runs each after ${WARMUP} warm-up runs, tool and baseline alternating`,
    );

    const rawRead = async () => {
      const lines = (await readFile(path, 'utf8')).split('\n');
      if (lines.length < lineCount) throw new Error('short read');
    };
    const windows = [
      { label: 'middle', offset: Math.floor(lineCount / 2) - WINDOW_LINES / 2 },
      { label: 'end', offset: lineCount - WINDOW_LINES - 10 },
    ];
    for (const { label, offset } of windows) {
      const tool = async () => {
        const result = await readFileTool.run({ path: 'big.txt', offset, limit: WINDOW_LINES }, context);
        if (result.isError || !result.content.includes(`Showing lines ${offset}-${offset + WINDOW_LINES - 1} of ${lineCount}`)) {
          throw new Error(`read_file did not return the window: ${result.content.slice(-300)}`);
        }
      };
      const [toolMs, baseMs] = await alternate([tool, rawRead]);
      report(`read_file ${WINDOW_LINES} lines at ${offset.toLocaleString('en')} (${label})`, toolMs, 'fs.readFile + split', baseMs);
    }
    // The floor under any read that counts the file's lines: its bytes, not decoded.
    const [bytesMs] = await alternate([() => readFile(path)]);
    console.log(
      `  for scale: fs.readFile as bytes only (no decode, no split): p50 ${formatMs(percentile(bytesMs, 50))}, p95 ${formatMs(percentile(bytesMs, 95))}`,
    );

    // One unique line, edited back and forth (whichever side runs, the next edit undoes it).
    const target = Math.floor(lineCount * 0.6);
    const states = [lineText(target), `${lineText(target)} EDITED`] as const;
    let edits = 0;
    const nextEdit = () => [states[edits % 2]!, states[++edits % 2]!] as const;
    const tool = async () => {
      const [from, to] = nextEdit();
      const result = await editFileTool.run({ path: 'big.txt', old_text: from, new_text: to }, context);
      if (result.isError) throw new Error(`edit_file failed: ${result.content}`);
    };
    const raw = async (durable: boolean) => {
      const [from, to] = nextEdit();
      const text = await readFile(path, 'utf8');
      if (!text.includes(from)) throw new Error('raw edit: line not found');
      if (!durable) return writeFile(path, text.replace(from, to));
      const handle = await open(path, 'w');
      try {
        await handle.writeFile(text.replace(from, to));
        await handle.sync();
      } finally {
        await handle.close();
      }
    };
    const [toolMs, baseMs, durableMs] = await alternate([tool, () => raw(false), () => raw(true)]);
    report('edit_file of one unique line', toolMs, 'fs.readFile + replace + fs.writeFile', baseMs);
    console.log(
      `  for scale: the same raw edit plus an fsync (edit_file fsyncs its temp file before the rename, and the folder after): ` +
        `p50 ${formatMs(percentile(durableMs, 50))}, p95 ${formatMs(percentile(durableMs, 95))}`,
    );
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function lineText(n: number): string {
  return `line ${String(n).padStart(7, '0')}: the quick brown fox jumps`;
}

/** Writes about FILE_BYTES of numbered lines (each unique); returns the line count. */
function writeBigFile(path: string): number {
  const lines: string[] = [];
  let bytes = 0;
  for (let n = 1; bytes < FILE_BYTES; n++) {
    const line = lineText(n);
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return lines.length;
}

/**
 * Runs each function WARMUP times, then up to REPEATS times each, rotating which goes first; stops
 * early (after at least MIN_REPEATS) when a busy machine would take the section past its budget.
 */
type Timed = () => Promise<unknown>;
async function alternate(fns: [Timed]): Promise<[number[]]>;
async function alternate(fns: [Timed, Timed]): Promise<[number[], number[]]>;
async function alternate(fns: [Timed, Timed, Timed]): Promise<[number[], number[], number[]]>;
async function alternate(fns: Timed[]): Promise<number[][]> {
  const time = async (fn: Timed) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  for (let i = 0; i < WARMUP; i++) for (const fn of fns) await time(fn);
  const samples = fns.map((): number[] => []);
  const began = performance.now();
  for (let i = 0; i < REPEATS; i++) {
    if (i >= MIN_REPEATS && performance.now() - began > SECTION_BUDGET_MS) break;
    for (let j = 0; j < fns.length; j++) {
      const k = (i + j) % fns.length;
      samples[k]!.push(await time(fns[k]!));
    }
  }
  return samples;
}

function report(label: string, tool: number[], baseLabel: string, base: number[]): void {
  const p50 = percentile(tool, 50);
  const p95 = percentile(tool, 95);
  const b50 = percentile(base, 50);
  const b95 = percentile(base, 95);
  console.log(`${label}: p50 ${formatMs(p50)}, p95 ${formatMs(p95)}`);
  console.log(`  baseline ${baseLabel}: p50 ${formatMs(b50)}, p95 ${formatMs(b95)}`);
  console.log(`  ratio tool/baseline: p50 ${(p50 / b50).toFixed(2)}×, p95 ${(p95 / b95).toFixed(2)}× (goal ≤ ${GOAL_RATIO}×)`);
}
