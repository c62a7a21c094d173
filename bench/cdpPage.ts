import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromiumArgs, chromiumPath } from '../test/e2e/support/chromium';

/**
 * A Chromium page driven over the DevTools protocol with no domain enabled but what is asked
 * for. Playwright enables the Network domain on every page and worker, and Chromium then copies
 * each WebSocket frame into a base64 event for it: 68 MB of protocol traffic for the terminal
 * bench's 50 MB, which the browser and the bench process pay for on the same two cores as the
 * pipeline under test (~30% of its rate). A person's window has no such observer, so the
 * terminal's figures are taken without it.
 */
export interface CdpPage {
  /** Evaluates `expression` in the page, awaiting a promise, and returns its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Runs `fn(arg)` in the page (its source is sent: it may use only its argument). */
  call<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
  /** Text into the focused element, as an input method inserts it. */
  insertText(text: string): Promise<void>;
  /** One key: a lower-case letter, Enter, or Control with a letter ("Control+C"). */
  press(key: string): Promise<void>;
  /** A protocol command (Profiler.start, …). */
  send<T = unknown>(method: string, params?: object): Promise<T>;
  close(): Promise<void>;
}

const CTRL = 2;

export async function openCdpPage(url: string, viewport: { width: number; height: number }, timeoutMs = 20_000): Promise<CdpPage> {
  const profile = mkdtempSync(join(tmpdir(), 'keel-bench-chromium-'));
  // --enable-automation sets navigator.webdriver, which the test build's terminal hook waits for.
  const browser = spawn(
    chromiumPath,
    [
      ...chromiumArgs,
      '--headless',
      '--enable-automation',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      `--window-size=${viewport.width},${viewport.height}`,
      'about:blank',
    ],
    // Its own process group: closing ends its helpers (renderer, zygote, crashpad) too, which
    // otherwise write into the profile while it is removed.
    { stdio: 'ignore', detached: true },
  );
  let failed: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    browser.once('exit', () => resolve());
    // No such program: there is no exit to wait for.
    browser.once('error', (error) => {
      failed = error;
      resolve();
    });
  });
  const deadline = Date.now() + timeoutMs;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (browser.pid !== undefined) process.kill(-browser.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const close = async () => {
    if (browser.exitCode === null && !failed) signalGroup('SIGTERM');
    await exited;
    // Helpers that outlived the browser would go on writing into the profile.
    signalGroup('SIGKILL');
    // A helper still flushing its last write: rm retries the folder it made non-empty again.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  try {
    const portFile = join(profile, 'DevToolsActivePort');
    while (!existsSync(portFile) || !readFileSync(portFile, 'utf8').includes('\n')) {
      if (failed) throw new Error(`Chromium (${chromiumPath}) could not start: ${failed.message}`);
      if (browser.exitCode !== null) throw new Error(`Chromium (${chromiumPath}) exited with code ${browser.exitCode} before opening its DevTools port`);
      if (Date.now() > deadline) throw new Error(`Chromium (${chromiumPath}) did not open its DevTools port within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const port = readFileSync(portFile, 'utf8').split('\n')[0]!;
    const target = (await (await fetch(`http://127.0.0.1:${port}/json/new?about:blank`, { method: 'PUT' })).json()) as { webSocketDebuggerUrl: string };
    const socket = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 256 * 1024 * 1024 });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    let nextId = 0;
    const answers = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id !== undefined) answers.get(message.id)?.(message);
    });
    const send = <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId;
        answers.set(id, (message) => {
          answers.delete(id);
          if (message.error) reject(new Error(`${method}: ${message.error.message}`));
          else resolve(message.result as T);
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    const evaluate = async <T>(expression: string): Promise<T> => {
      const answer = await send<{ result: { value?: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>('Runtime.evaluate', {
        expression,
        awaitPromise: true,
        returnByValue: true,
      });
      if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
      return answer.result.value as T;
    };
    const key = async (type: 'keyDown' | 'keyUp', name: string) => {
      const [modifier, main] = name.includes('+') ? name.split('+') : [undefined, name];
      const letter = main!.length === 1 ? main!.toLowerCase() : undefined;
      const code = letter ? `Key${letter.toUpperCase()}` : main!;
      const keyCode = letter ? letter.toUpperCase().charCodeAt(0) : main === 'Enter' ? 13 : 0;
      const text = type === 'keyUp' ? undefined : modifier ? undefined : main === 'Enter' ? '\r' : letter;
      await send('Input.dispatchKeyEvent', {
        type,
        key: letter ?? main,
        code,
        windowsVirtualKeyCode: keyCode,
        modifiers: modifier === 'Control' ? CTRL : 0,
        text,
      });
    };
    await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
    await send('Page.navigate', { url });
    return {
      evaluate,
      // tsx keeps function names with a helper the page does not have; an identity stands in.
      call: (fn, arg) => evaluate(`(globalThis.__name ??= (f) => f, (${fn.toString()})(${JSON.stringify(arg)}))`),
      insertText: async (text) => void (await send('Input.insertText', { text })),
      press: async (name) => {
        await key('keyDown', name);
        await key('keyUp', name);
      },
      send,
      close: async () => {
        socket.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
