import type { AgentEvent } from '../../common/agentEvents';
import type { ChatItem } from '../../common/chat';
import type { Translate } from '../i18n/I18nProvider';

/** What a writer of the agent tab needs: somewhere to write and whether a line is open. */
export interface AgentFeedSink {
  write(data: string): void;
  readonly atLineStart: boolean;
}

const RESET = '\x1b[0m';
const COMMAND = '\x1b[1;34m';
const OK = '\x1b[32m';
const FAILED = '\x1b[1;31m';
const NOTE = '\x1b[33m';
const DIM = '\x1b[2m';

/** A reopened session replays at most its last this many commands into the Agent tab. */
export const MAX_REPLAYED_COMMANDS = 200;
/** …and of each command's recorded output at most its last this many characters. */
export const MAX_REPLAYED_OUTPUT_CHARS = 20_000;

/** `\n` as a terminal needs it (`\r\n`); output from the agent's pty already has `\r\n`. */
export function toTerminalLines(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** How a bash tool result ended: its last line, `[exit code: N]` or a note in brackets. */
export function parseEnding(content: string): { output: string; exitCode?: number; note?: string } {
  const cut = content.lastIndexOf('\n');
  const last = (cut === -1 ? content : content.slice(cut + 1)).trim();
  const output = cut === -1 ? '' : content.slice(0, cut);
  const exit = /^\[exit code: (-?\d+|unknown)\]$/.exec(last);
  if (exit) return { output, exitCode: exit[1] === 'unknown' ? undefined : Number(exit[1]), note: exit[1] === 'unknown' ? last.slice(1, -1) : undefined };
  if (/^\[.*\]$/.test(last)) return { output, note: last.slice(1, -1) };
  return { output: content, note: undefined };
}

/** main's bracketed note on how a command ended, in the window's language (unknown notes as they are). */
export function noteText(note: string, t: Translate): string {
  if (note.startsWith('timed out')) return t('terminal.note.timeout', { seconds: /after (\d+) s/.exec(note)?.[1] ?? '?' });
  if (note.startsWith('stopped by the person')) return t('terminal.note.stopped');
  const signal = /^terminated by signal (\S+)$/.exec(note);
  if (signal) return t('terminal.note.signal', { signal: signal[1]! });
  if (note === 'exit code: unknown') return t('terminal.note.unknownExit');
  return note;
}

/**
 * Writes the agent's bash commands into the read-only Agent tab as they run: a coloured `$ command`
 * line, the streamed output, then a line with the exit status (green for 0, red otherwise, yellow
 * for a timeout or a stop).
 */
export class AgentFeed {
  /** Bash calls running, by tool call id: whether any output was streamed for them. */
  private readonly running = new Map<string, { streamed: boolean }>();
  /** Every bash call written so far: a replayed history never writes one twice. */
  private readonly written = new Set<string>();
  /** Approval cards of running bash calls, by card id: the call each one holds back. */
  private readonly asking = new Map<string, string>();

  constructor(
    private readonly sink: AgentFeedSink,
    private readonly t: () => Translate,
    /** Called when a command starts (for the badge). */
    private readonly onCommand: () => void,
  ) {}

  /** Forgets the commands in flight and written (another session opened). */
  reset(): void {
    this.running.clear();
    this.written.clear();
    this.asking.clear();
  }

  /**
   * Writes the bash calls of a session's history (the window opened, or another session did), as
   * they ran; not counted as new. Returns how many were written.
   */
  replay(items: readonly ChatItem[]): number {
    const commands = items.filter(
      (item): item is Extract<ChatItem, { kind: 'tool' }> => item.kind === 'tool' && item.name === 'bash' && !this.written.has(item.id),
    );
    const skipped = Math.max(0, commands.length - MAX_REPLAYED_COMMANDS);
    if (skipped > 0) {
      if (!this.sink.atLineStart) this.sink.write('\r\n');
      this.sink.write(`${DIM}${this.t()('terminal.agentEarlierHidden', { count: skipped })}${RESET}\r\n\r\n`);
    }
    let count = 0;
    for (const item of commands.slice(skipped)) {
      this.start(item.id, item.input);
      count++;
      const output = item.output && item.output.length > MAX_REPLAYED_OUTPUT_CHARS ? `…${item.output.slice(-MAX_REPLAYED_OUTPUT_CHARS)}` : item.output;
      if (output) this.apply({ type: 'tool_output', id: item.id, chunk: output });
      if (item.result) this.apply({ type: 'tool_result', id: item.id, name: 'bash', ...item.result });
    }
    return count;
  }

  apply(event: AgentEvent): void {
    if (event.type === 'tool_call' && event.name === 'bash') {
      if (this.written.has(event.id)) return;
      this.start(event.id, event.input);
      this.onCommand();
    } else if (event.type === 'approval_requested') {
      // The command is shown when the agent asks, but it has not run: the tab says it waits.
      if (!this.running.has(event.request.toolUseId)) return;
      this.asking.set(event.request.id, event.request.toolUseId);
      this.newLine();
      this.sink.write(`${DIM}${this.t()('terminal.agentWaiting')}${RESET}\r\n`);
    } else if (event.type === 'approval_resolved') {
      const call = this.asking.get(event.id);
      this.asking.delete(event.id);
      if (call === undefined || event.decision === 'deny' || !this.running.has(call)) return;
      this.newLine();
      this.sink.write(`${DIM}${this.t()('terminal.agentApproved')}${RESET}\r\n`);
    } else if (event.type === 'tool_output') {
      const run = this.running.get(event.id);
      if (!run || (event.chunk === '' && !event.skipped)) return;
      run.streamed = true;
      if (event.skipped) {
        this.newLine();
        this.sink.write(`${DIM}${this.t()('terminal.agentSkipped', { count: event.skipped.toLocaleString() })}${RESET}\r\n`);
      }
      this.sink.write(toTerminalLines(event.chunk));
    } else if (event.type === 'tool_result') {
      const run = this.running.get(event.id);
      if (!run) return;
      this.running.delete(event.id);
      const { output, exitCode, note } = parseEnding(event.content);
      if (!run.streamed && output !== '' && output !== '(no output)') this.sink.write(toTerminalLines(output));
      this.newLine();
      if (exitCode !== undefined) {
        const colour = exitCode === 0 ? OK : FAILED;
        this.sink.write(`${colour}${exitCode === 0 ? '✓' : '✗'} ${this.t()('terminal.agentExit', { code: exitCode })}${RESET}\r\n\r\n`);
      } else {
        this.sink.write(`${NOTE}! ${noteText(note ?? event.content.split('\n').at(-1) ?? '', this.t())}${RESET}\r\n\r\n`);
      }
    }
  }

  private start(id: string, input: unknown): void {
    const command = typeof (input as { command?: unknown } | null)?.command === 'string' ? (input as { command: string }).command : '';
    this.written.add(id);
    this.running.set(id, { streamed: false });
    this.newLine();
    this.sink.write(`${COMMAND}$ ${toTerminalLines(command).replace(/\r\n/g, `\r\n${COMMAND}> `)}${RESET}\r\n`);
  }

  private newLine(): void {
    if (!this.sink.atLineStart) this.sink.write(`${RESET}\r\n`);
  }
}
