import stripAnsi from 'strip-ansi';
import type { PlanItem, PlanStatus } from '../../../common/plan/types';

/* What the tool cards read out of a call's input and result: pure, no React. */

export type Fields = Record<string, unknown>;

export function fieldsOf(input: unknown): Fields {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Fields) : {};
}

export function stringField(input: unknown, name: string): string | undefined {
  const value = fieldsOf(input)[name];
  return typeof value === 'string' ? value : undefined;
}

export function numberField(input: unknown, name: string): number | undefined {
  const value = fieldsOf(input)[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The longest one-line summary a card shows (as the other cards' raw input). */
const SUMMARY_LENGTH = 120;

/**
 * A `delegate` call's one line: `#step: ` and the first line of what the helper is told, with
 * ` …` when more lines follow, cut at the cards' length. Lenient: the input may still be streaming.
 */
export function delegateSummary(input: unknown): string {
  const item = stringField(input, 'item');
  const instructions = (stringField(input, 'instructions') ?? '').trim();
  const line = instructions.split('\n', 1)[0]!.trim();
  const text = item === undefined || item === '' ? line : line === '' ? `#${item}` : `#${item}: ${line}`;
  if (text.length > SUMMARY_LENGTH) return `${text.slice(0, SUMMARY_LENGTH - 1)}…`;
  return line.length < instructions.length ? `${text} …` : text;
}

/** How a command ended, from the last line of the bash tool's result. */
export type CommandEnding =
  | { kind: 'exit'; code: number | null }
  | { kind: 'signal'; signal: string }
  | { kind: 'timeout' }
  | { kind: 'stopped' }
  | { kind: 'denied' }
  | { kind: 'failed' };

export interface CommandResult {
  ending: CommandEnding;
  /** The output without the closing status line. */
  output: string;
}

const DENIED = /^The person denied this /;
/** What main puts first in the result of a call the person's Stop cut short. */
const CANCELLED = 'Cancelled: the person stopped the task';

export function parseCommandResult(content: string, isError: boolean): CommandResult {
  if (DENIED.test(content)) return { ending: { kind: 'denied' }, output: '' };
  const newline = content.lastIndexOf('\n');
  const last = content.slice(newline + 1).trim();
  const output = newline === -1 ? '' : content.slice(0, newline);
  const exit = /^\[exit code: (\d+|unknown)\]$/.exec(last);
  if (exit) return { ending: { kind: 'exit', code: exit[1] === 'unknown' ? null : Number(exit[1]) }, output };
  const signal = /^\[terminated by signal (\S+)\]$/.exec(last);
  if (signal) return { ending: { kind: 'signal', signal: signal[1]! }, output };
  if (last.startsWith('[timed out')) return { ending: { kind: 'timeout' }, output };
  const cancelled = content.startsWith(CANCELLED);
  if (last.startsWith('[stopped by the person') || cancelled) {
    const body = last.startsWith('[') ? output : content;
    return { ending: { kind: 'stopped' }, output: cancelled ? body.replace(/^Cancelled:[^\n]*\n*/, '') : body };
  }
  return { ending: isError ? { kind: 'failed' } : { kind: 'exit', code: null }, output: content };
}

export function isDenied(content: string): boolean {
  return DENIED.test(content);
}

/** A call the person's Stop cut short (or prevented). */
export function isStopped(content: string): boolean {
  return content.startsWith(CANCELLED) || /\n\[stopped by the person[^\n]*\]\s*$/.test(content);
}

/**
 * Terminal output as text: colours and cursor codes removed, and a line redrawn with carriage
 * returns (a progress bar) reduced to what it last showed.
 */
export function terminalText(raw: string): string {
  const text = stripAnsi(raw).replace(/\r\n/g, '\n');
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      // A trailing \r (the redraw has not come yet) keeps the last drawn state.
      for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i]!;
      return '';
    })
    .join('\n');
}

/** The line range a read showed: from its numbered lines, else from the input. */
export function readRange(input: unknown, result: string | undefined): { from: number; to: number; total?: number } | null {
  if (result !== undefined) {
    const showing = /\(Showing lines (\d+)-(\d+) of (\d+)/.exec(result);
    if (showing) return { from: Number(showing[1]), to: Number(showing[2]), total: Number(showing[3]) };
    const numbers = [...result.matchAll(/^ *(\d+)\t/gm)].map((m) => Number(m[1]));
    if (numbers.length > 0) return { from: numbers[0]!, to: numbers.at(-1)! };
  }
  const offset = numberField(input, 'offset');
  const limit = numberField(input, 'limit');
  if (offset === undefined && limit === undefined) return null;
  const from = Math.max(1, offset ?? 1);
  return { from, to: limit === undefined ? Number.NaN : from + limit - 1 };
}

/** A read's result without the line-number gutter, for showing as code. */
export function readContent(result: string): { lines: { number: number; text: string }[]; notes: string[] } {
  const lines: { number: number; text: string }[] = [];
  const notes: string[] = [];
  for (const line of result.split('\n')) {
    const numbered = /^ *(\d+)\t(.*)$/.exec(line);
    if (numbered) lines.push({ number: Number(numbered[1]), text: numbered[2]! });
    else if (line.trim() !== '') notes.push(line);
  }
  return { lines, notes };
}

/** Paths listed or lines matched: the result's lines that are not notes in parentheses. */
export function countResults(result: string): number {
  if (/^No (files match|matches for)/.test(result)) return 0;
  return result.split('\n').filter((line) => line.trim() !== '' && !/^\(.*\)$/.test(line.trim())).length;
}

const STATUSES: readonly PlanStatus[] = ['pending', 'in_progress', 'completed'];

/**
 * The items of a `todo` call as the model sent them, read leniently for display (the validator in
 * main judged them); an item without an id is matched to an earlier call by its text.
 */
export function todoItems(input: unknown): PlanItem[] | null {
  const items = fieldsOf(input).items;
  if (!Array.isArray(items)) return null;
  return items.map((raw) => {
    const item = fieldsOf(raw);
    const content = typeof item.content === 'string' ? item.content.trim() : '';
    const status = typeof item.status === 'string' ? item.status.trim().toLowerCase() : 'pending';
    return {
      id: typeof item.id === 'string' && item.id !== '' ? item.id : `text:${content}`,
      content,
      status: (STATUSES as string[]).includes(status) ? (status as PlanStatus) : 'pending',
      ...(typeof item.activeForm === 'string' ? { activeForm: item.activeForm } : {}),
    };
  });
}
