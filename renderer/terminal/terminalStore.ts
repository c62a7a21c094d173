import type { KeelApi, TerminalInfo } from '../../common/contract';
import { DisposableStore, type Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import { translator, type Translate } from '../i18n/I18nProvider';
import { AgentFeed } from './agentFeed';
import { AGENT_TAB } from './agentTab';
import { inputChunks } from './inputChunks';
import { TerminalSession } from './session';

export { AGENT_TAB };

export interface TerminalTab {
  id: string;
  kind: 'shell' | 'agent';
  /** The shell's name (`bash`) and its number among the tabs, for the label. */
  title: string;
  n: number;
  exited: boolean;
}

export interface TerminalSnapshot {
  tabs: TerminalTab[];
  activeId: string;
  /** Agent commands started since the Agent tab was last on screen. */
  agentUnseen: number;
  error: string | undefined;
}

/** Output held for a tab this window does not know yet (it arrived before `terminal.create` or `terminal.list` answered). */
const MAX_EARLY_OUTPUT_BYTES = 2_000_000;

interface HeldOutput {
  frames: Array<{ seq: number; data: Uint8Array }>;
  bytes: number;
}

/**
 * The terminals of this window, outside React: the tabs' xterm.js instances, the agent's feed
 * (fed while the panel is collapsed too) and the event routing. The panel renders its snapshot.
 */
export class TerminalStore {
  readonly sessions = new Map<string, TerminalSession>();
  private readonly shells: Array<{ info: TerminalInfo; n: number; exited: boolean }> = [];
  private snapshot: TerminalSnapshot;
  private readonly changes = new Emitter<[]>();
  /** What the store listens to: the agent's events, the workspace, terminal output and exits, the theme. */
  private readonly subscriptions = new DisposableStore();
  /** Output for tabs not known yet, or whose screen snapshot is on its way. */
  private readonly held = new Map<string, HeldOutput>();
  /** Per tab, the last output batch its screen already shows (batches up to it are skipped). */
  private readonly shownSeq = new Map<string, number>();
  private t: Translate = translator('en');
  private panelOpen = false;
  private introWritten = false;
  /** The person picked the Agent tab: a shell started as the panel opens does not take its place. */
  private agentChosen = false;
  private activeId = AGENT_TAB;
  private agentUnseen = 0;
  /** Agent commands shown in the Agent tab (this session's, since the window opened). */
  private agentCommands = 0;
  /** The session whose commands the Agent tab shows; undefined until known. */
  private sessionId: string | null | undefined;
  private readonly feed: AgentFeed;
  private error: string | undefined;
  private ensuring: Promise<void> | undefined;
  private nextNumber = new Map<string, number>();
  readonly agent: TerminalSession;

  constructor(private readonly api: KeelApi) {
    this.agent = new TerminalSession({ kind: 'agent' });
    this.sessions.set(AGENT_TAB, this.agent);
    const feed = new AgentFeed(
      this.agent,
      () => this.t,
      () => this.commandStarted(),
    );
    this.feed = feed;
    this.snapshot = this.build();
    this.subscriptions.add(api.on('agent.event', (event) => feed.apply(event)));
    this.subscriptions.add(api.on('workspace.changed', (workspace) => this.sessionOpened(workspace?.sessionId ?? null)));
    void api.request('workspace.current', {}).then((result) => {
      if (!result.ok || this.sessionId !== undefined || this.subscriptions.isDisposed) return;
      this.sessionId = result.value?.sessionId ?? null;
      void this.replayHistory(this.sessionId);
    });
    this.subscriptions.add(api.terminalOutput.on((id, seq, data) => this.output(id, seq, data)));
    this.subscriptions.add(api.on('terminal.exit', ({ id, exitCode, signal }) => this.exited(id, exitCode, signal)));
    const themeWatch = new MutationObserver(() => {
      for (const session of this.sessions.values()) session.setTheme();
    });
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    this.subscriptions.add(() => themeWatch.disconnect());
  }

  subscribe = (listener: () => void): Disposable => this.changes.on(listener);

  /** Stops listening and lets go of every tab's screen; the shells themselves live on in main. */
  dispose(): void {
    this.subscriptions.dispose();
    this.changes.clear();
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
  }

  getSnapshot = (): TerminalSnapshot => this.snapshot;

  /** The window's language; the Agent tab's first line is written in it. */
  setTranslator(t: Translate): void {
    this.t = t;
    if (!this.introWritten) {
      this.introWritten = true;
      this.agent.write(`\x1b[2m${t('terminal.agentEmpty')}\x1b[0m\r\n\r\n`);
    }
  }

  get active(): TerminalSession | undefined {
    return this.sessions.get(this.activeId);
  }

  /** The panel opened or closed; opened with no shell, one is started (or re-attached after a reload). */
  setPanelOpen(open: boolean): void {
    // Opened with agent commands not seen yet: they are what the person comes for.
    if (open && !this.panelOpen && this.agentUnseen > 0) this.activeId = AGENT_TAB;
    this.panelOpen = open;
    if (open && this.activeId === AGENT_TAB) this.agentUnseen = 0;
    if (open) void this.ensureShell();
    this.changed();
  }

  select(id: string): void {
    if (!this.sessions.has(id)) return;
    this.activeId = id;
    this.agentChosen = id === AGENT_TAB;
    if (id === AGENT_TAB) this.agentUnseen = 0;
    this.changed();
  }

  /** A new shell tab, made active. */
  async createShell(activate = true): Promise<string | undefined> {
    const size = this.active?.proposedSize() ?? { cols: 80, rows: 24 };
    const result = await this.api.request('terminal.create', size);
    if (!result.ok) {
      this.error = this.t('terminal.startFailed', { message: result.error.message });
      this.changed();
      return undefined;
    }
    this.error = undefined;
    this.adopt(result.value);
    if (activate) {
      this.activeId = result.value.id;
      this.agentChosen = false;
    }
    this.changed();
    return result.value.id;
  }

  /** Closes a shell tab: main kills its whole process tree. */
  async closeShell(id: string): Promise<void> {
    const index = this.shells.findIndex((shell) => shell.info.id === id);
    if (index === -1) return;
    this.shells.splice(index, 1);
    this.sessions.get(id)?.dispose();
    this.sessions.delete(id);
    if (this.activeId === id) this.activeId = this.shells[Math.min(index, this.shells.length - 1)]?.info.id ?? AGENT_TAB;
    this.changed();
    await this.api.request('terminal.close', { id });
  }

  private ensureShell(): Promise<void> {
    this.ensuring ??= (async () => {
      if (this.shells.length === 0) {
        const listed = await this.api.request('terminal.list', {});
        if (listed.ok) for (const info of listed.value) this.adopt(info, true);
      }
      // The agent's commands, when it has run any, stay in front; a shell starts behind them.
      const takeOver = this.activeId === AGENT_TAB && !this.agentChosen && this.agentCommands === 0;
      if (this.shells.length === 0) await this.createShell(takeOver);
      else if (takeOver) this.activeId = this.shells[0]!.info.id;
      this.changed();
    })().finally(() => (this.ensuring = undefined));
    return this.ensuring;
  }

  /**
   * A tab for a shell. One that was running before this window knew it (`attach`: a reload, or a
   * second window) starts from main's snapshot of its screen and scrollback.
   */
  private adopt(info: TerminalInfo, attach = false): void {
    if (this.sessions.has(info.id)) return;
    const n = (this.nextNumber.get(info.title) ?? 0) + 1;
    this.nextNumber.set(info.title, n);
    const id = info.id;
    const session = new TerminalSession({
      kind: 'shell',
      onInput: (data) => this.sendInput(id, data),
      onResize: (cols, rows) => void this.api.request('terminal.resize', { id, cols, rows }),
      onAck: (bytes, parseRate) => this.api.terminalOutput.ack(id, bytes, parseRate),
    });
    this.sessions.set(id, session);
    this.shells.push({ info, n, exited: false });
    if (!attach) {
      this.release(id, session, 0);
      return;
    }
    this.held.set(id, this.held.get(id) ?? { frames: [], bytes: 0 });
    void this.api.request('terminal.snapshot', { id }).then((snapshot) => {
      if (this.sessions.get(id) !== session) return;
      if (snapshot.ok) session.write(snapshot.value.data);
      this.release(id, session, snapshot.ok ? snapshot.value.seq : 0);
    });
  }

  /** The tab's screen is ready: what was held, newer than what it shows, is written. */
  private release(id: string, session: TerminalSession, shownSeq: number): void {
    this.shownSeq.set(id, shownSeq);
    const held = this.held.get(id);
    this.held.delete(id);
    for (const frame of held?.frames ?? []) this.deliver(session, id, frame.seq, frame.data);
  }

  private output(id: string, seq: number, data: Uint8Array): void {
    const session = this.sessions.get(id);
    if (session && !this.held.has(id)) {
      this.deliver(session, id, seq, data);
      return;
    }
    const held = this.held.get(id) ?? { frames: [], bytes: 0 };
    held.frames.push({ seq, data });
    held.bytes += data.length;
    while (held.bytes > MAX_EARLY_OUTPUT_BYTES && held.frames.length > 1) {
      const dropped = held.frames.shift()!;
      // Not acknowledged: this window does not show the tab (yet), so it must not speed the
      // shell past a window that does. A reloaded window's snapshot starts flow control over.
      held.bytes -= dropped.data.length;
    }
    this.held.set(id, held);
  }

  private deliver(session: TerminalSession, id: string, seq: number, data: Uint8Array): void {
    if (seq <= (this.shownSeq.get(id) ?? 0)) session.skipOutput(data.length);
    else session.writeOutput(data);
  }

  private exited(id: string, exitCode: number | null, signal: number | null): void {
    this.held.delete(id);
    const shell = this.shells.find((entry) => entry.info.id === id);
    const session = this.sessions.get(id);
    if (!shell || !session) return;
    shell.exited = true;
    const line = exitCode === null ? this.t('terminal.exitedSignal', { signal: signal ?? '?' }) : this.t('terminal.exited', { code: exitCode });
    session.write(`\x1b[0m\r\n\x1b[2m${line}\x1b[0m\r\n`);
    this.changed();
  }

  /** Another session opened: the Agent tab starts over, showing only that session's commands. */
  private sessionOpened(sessionId: string | null): void {
    const previous = this.sessionId;
    this.sessionId = sessionId;
    if (previous === undefined) void this.replayHistory(sessionId);
    if (previous === undefined || previous === sessionId) return;
    this.feed.reset();
    this.agent.reset();
    this.agent.write(`\x1b[2m${this.t('terminal.agentEmpty')}\x1b[0m\r\n\r\n`);
    this.agentCommands = 0;
    this.agentUnseen = 0;
    this.changed();
    void this.replayHistory(sessionId);
  }

  /** The open session's earlier commands, written into the Agent tab as they ran. */
  private async replayHistory(sessionId: string | null): Promise<void> {
    if (sessionId === null) return;
    const history = await this.api.request('chat.history', {});
    if (!history.ok || this.sessionId !== sessionId) return;
    const count = this.feed.replay(history.value);
    if (count === 0) return;
    this.agentCommands += count;
    this.changed();
  }

  private commandStarted(): void {
    this.agentCommands += 1;
    if (!(this.panelOpen && this.activeId === AGENT_TAB)) {
      this.agentUnseen += 1;
      this.changed();
    }
  }

  private changed(): void {
    this.snapshot = this.build();
    this.changes.fire();
  }

  /**
   * Input in pieces the contract accepts (a long paste). Requests on one transport are handled in
   * the order sent, so the pieces, and keys typed after them, reach the shell in order.
   */
  private sendInput(id: string, data: string): void {
    for (const chunk of inputChunks(data)) void this.api.request('terminal.input', { id, data: chunk });
  }

  private build(): TerminalSnapshot {
    return {
      tabs: [
        { id: AGENT_TAB, kind: 'agent', title: '', n: 0, exited: false },
        ...this.shells.map(({ info, n, exited }) => ({ id: info.id, kind: 'shell' as const, title: info.title, n, exited })),
      ],
      activeId: this.activeId,
      agentUnseen: this.agentUnseen,
      error: this.error,
    };
  }
}
