import { Terminal } from '@xterm/xterm';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { TerminalStore } from './terminalStore';
import { SCROLLBACK_LINES, type TerminalSession } from './session';
import { SessionProbe } from './sessionProbe';
import './testHookTypes';

export function installTestHook(store: TerminalStore): void {
  if (typeof navigator === 'undefined' || !navigator.webdriver) return;
  // Every tab is probed from the moment the store keeps it, before its first output.
  const probes = new WeakMap<TerminalSession, SessionProbe>();
  const watch = (session: TerminalSession) => probes.get(session) ?? probes.set(session, new SessionProbe(session)).get(session)!;
  for (const session of store.sessions.values()) watch(session);
  const keep = store.sessions.set.bind(store.sessions);
  store.sessions.set = (id, session) => (watch(session), keep(id, session));
  const session = (id: string) => {
    const found = store.sessions.get(id);
    if (!found) throw new Error(`no terminal ${id}`);
    return found;
  };
  const probe = (id: string) => watch(session(id));
  window.__keelTerminals = {
    tabs: () => store.getSnapshot().tabs.map(({ id, kind, title }) => ({ id, kind, title })),
    activeId: () => store.getSnapshot().activeId,
    lines: (id) => {
      const buffer = session(id).term.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
      return lines;
    },
    findLine: (id, needle) => {
      const buffer = session(id).term.buffer.active;
      for (let i = buffer.length - 1; i >= 0; i--) if (buffer.getLine(i)?.translateToString(true).includes(needle)) return i;
      return -1;
    },
    cell: (id, line, column) => {
      const cell = session(id).term.buffer.active.getLine(line)?.getCell(column);
      return cell ? { chars: cell.getChars(), width: cell.getWidth() } : null;
    },
    waitForOutput: (id, needle, timeoutMs = 10_000) => probe(id).waitForOutput(needle, timeoutMs),
    lastInputAt: (id) => probe(id).lastInputAt,
    renderedChars: (id) => probe(id).renderedChars,
    size: (id) => {
      const term = store.sessions.get(id)?.term;
      return term ? { cols: term.cols, rows: term.rows } : null;
    },
    parseCeiling: async (lines, lineChars, chunkBytes, visible = false) => {
      const like = store.active?.term;
      const host = document.createElement('div');
      const pane = store.active?.host.getBoundingClientRect();
      host.style.cssText =
        visible && pane
          ? `position:fixed;left:${pane.left}px;top:${pane.top}px;width:${pane.width}px;height:${pane.height}px;z-index:1000;pointer-events:none;`
          : 'position:fixed;left:0;top:0;width:900px;height:300px;opacity:0;pointer-events:none;';
      document.body.append(host);
      const term = new Terminal({
        cols: like?.cols ?? 150,
        rows: like?.rows ?? 20,
        scrollback: SCROLLBACK_LINES,
        allowProposedApi: true,
        fontFamily: like?.options.fontFamily,
        fontSize: like?.options.fontSize,
      });
      term.loadAddon(new Unicode11Addon());
      term.unicode.activeVersion = '11';
      term.open(host);
      const data = `${'a'.repeat(lineChars)}\r\n`.repeat(lines);
      const began = performance.now();
      if (chunkBytes === undefined) await new Promise<void>((resolve) => term.write(data, resolve));
      else {
        // As the pipeline delivers it: UTF-8 bytes in batches, about 1 MB of them queued at a time
        // (xterm.js drops writes beyond 50 MB queued).
        const bytes = new TextEncoder().encode(data);
        const inFlight = visible ? 1 : Math.max(1, Math.floor(1_000_000 / chunkBytes));
        for (let at = 0, n = 1; at < bytes.length; at += chunkBytes, n++) {
          const piece = bytes.subarray(at, at + chunkBytes);
          if (n % inFlight === 0 || at + chunkBytes >= bytes.length) await new Promise<void>((resolve) => term.write(piece, resolve));
          else term.write(piece);
        }
      }
      const ms = performance.now() - began;
      term.dispose();
      host.remove();
      return { ms, chars: data.length };
    },
  };
}
