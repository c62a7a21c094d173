// A stand-in for the parts of electron that main/index.ts and main/electron/ use. It records what
// main asks of it, then, once the window has loaded its page, plays a person's session against
// the real main code: the page's requests through the protocol handler, navigation attempts, IPC
// from the window and from a stranger, File › Open Folder…, a second instance, a shell left
// running, and quitting. It writes what happened to STANDIN_REPORT and exits.
import { execFileSync, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';

const env = process.env;
const report = { calls: [], titles: [], sent: [], messageBoxes: [], opened: [], errors: [], utilityForks: [] };
let ready = false;
let finished = false;

function finish(code = 0) {
  if (finished) return;
  finished = true;
  writeFileSync(env.STANDIN_REPORT, JSON.stringify(report, null, 2));
  process.exit(code);
}
setTimeout(() => {
  report.errors.push('the scenario did not finish within 60 s');
  finish(1);
}, 60_000).unref();

class StandInApp extends EventEmitter {
  isPackaged = false;
  requestSingleInstanceLock() {
    report.calls.push('requestSingleInstanceLock');
    return env.STANDIN_LOCK !== 'taken';
  }
  whenReady() {
    report.calls.push('whenReady');
    return readyPromise;
  }
  getPath(name) {
    report.calls.push(`getPath:${name}`);
    return env.STANDIN_USER_DATA;
  }
  getVersion() {
    return '0.0.0-standin';
  }
  quit() {
    report.calls.push('quit');
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    report.quitted = (report.quitted ?? 0) + 1;
    if (env.STANDIN_MARKER) report.processesAtQuit = liveWith(env.STANDIN_MARKER);
    if (env.STANDIN_SCENARIO === 'sandbox') report.helpersAtQuit = runningUtilities();
    setImmediate(() => finish());
  }
}
export const app = new StandInApp();
let resolveReady;
const readyPromise = new Promise((resolve) => (resolveReady = resolve));
// After main's top-level code has run, as Electron's ready comes after the app's first tick.
setImmediate(() => {
  ready = true;
  resolveReady();
});

let protocolHandler = null;
export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    report.calls.push('registerSchemesAsPrivileged');
    report.privileged = { schemes, beforeReady: !ready };
  },
  handle(scheme, handler) {
    report.calls.push(`protocol.handle:${scheme}`);
    protocolHandler = handler;
  },
};

class StandInWebContents extends EventEmitter {
  openHandler = null;
  permissionHandler = null;
  session = { setPermissionRequestHandler: (handler) => (this.permissionHandler = handler) };
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
  send(channel, payload) {
    report.sent.push({ channel, payload });
  }
  isDestroyed() {
    return false;
  }
}

const windows = [];
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows;
  }
  minimized = false;
  focusCalls = [];
  constructor(options) {
    super();
    windows.push(this);
    report.windowOptions = options;
    this.webContents = new StandInWebContents();
  }
  loadURL(url) {
    report.loadedURL = url;
    setImmediate(() =>
      scenario().catch((error) => {
        report.errors.push(`scenario: ${error?.stack ?? error}`);
        finish(1);
      }),
    );
    return Promise.resolve();
  }
  loadFile(path) {
    report.loadedFile = path;
    return Promise.resolve();
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return this.minimized;
  }
  restore() {
    this.minimized = false;
    this.focusCalls.push('restore');
  }
  show() {
    this.focusCalls.push('show');
  }
  focus() {
    this.focusCalls.push('focus');
  }
  setTitle(title) {
    report.titles.push(title);
  }
}

const ipcHandlers = new Map();
const ipcListeners = new EventEmitter();
export const ipcMain = {
  handle: (channel, handler) => ipcHandlers.set(channel, handler),
  removeHandler: (channel) => ipcHandlers.delete(channel),
  // Terminal acks arrive by send/on, outside the contract (main/electron/terminalIpc.ts).
  on: (channel, listener) => ipcListeners.on(channel, listener),
  removeListener: (channel, listener) => ipcListeners.removeListener(channel, listener),
};

export const dialog = {
  showOpenDialog: async () => ({ canceled: false, filePaths: [env.STANDIN_PICK] }),
  showMessageBox: async (...args) => {
    const options = args.length > 1 ? args[1] : args[0];
    report.messageBoxes.push(options.message);
    return { response: 0 };
  },
};

let applicationMenu = null;
export const Menu = {
  buildFromTemplate: (template) => template,
  setApplicationMenu: (menu) => (applicationMenu = menu),
};

export const safeStorage = {
  isAsyncEncryptionAvailable: async () => env.STANDIN_ENCRYPTION === 'available',
  getSelectedStorageBackend: () => 'basic_text',
  encryptStringAsync: async () => {
    throw new Error('the stand-in has no encryption');
  },
  decryptStringAsync: async () => {
    throw new Error('the stand-in has no encryption');
  },
};

export const shell = {
  openExternal: async (url) => void report.opened.push(url),
};

/**
 * Electron's utility processes, as far as Keel uses them: a Node child that talks through
 * process.parentPort (parentPort.mjs), with Electron's events: spawn, message, exit (a code).
 */
class StandInUtilityProcess extends EventEmitter {
  constructor(modulePath, args, options) {
    super();
    if (!ready) throw new Error('utilityProcess.fork can only be called after the ready event');
    const parentPort = new URL('./parentPort.mjs', import.meta.url).pathname;
    this.child = fork(modulePath, args, {
      cwd: options.cwd,
      env: options.env,
      execArgv: ['--import', parentPort, ...(options.execArgv ?? [])],
      stdio: ['ignore', 'ignore', options.stdio?.[2] === 'pipe' ? 'pipe' : 'ignore', 'ipc'],
      serialization: 'json',
    });
    this.stdout = null;
    this.stderr = this.child.stderr;
    this.child.once('spawn', () => {
      this.pid = this.child.pid;
      this.emit('spawn');
    });
    this.child.on('message', (message) => this.emit('message', message));
    this.child.once('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
  }
  postMessage(message) {
    this.child.send(message);
  }
  kill() {
    return this.child.kill();
  }
}
const utilities = [];
const runningUtilities = () => utilities.filter(({ child }) => child.exitCode === null && child.signalCode === null).length;
export const utilityProcess = {
  fork(modulePath, args = [], options = {}) {
    report.utilityForks.push({ modulePath, cwd: options.cwd, serviceName: options.serviceName });
    const utility = new StandInUtilityProcess(modulePath, args, options);
    utilities.push(utility);
    return utility;
  },
};

export default { app, protocol, BrowserWindow, ipcMain, dialog, Menu, safeStorage, shell, utilityProcess };

async function until(probe, what, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const liveWith = (marker) =>
  execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.trim().startsWith('Z') && !line.includes('ps -eo')).length;

async function scenario() {
  if (env.STANDIN_SCENARIO === 'sandbox') return sandboxScenario();
  const window = windows[0];
  const contents = window.webContents;

  // The page's requests, as Chromium hands them to protocol.handle.
  const fetchStatus = async (url) => {
    const response = await protocolHandler(new Request(url));
    return { status: response.status, type: response.headers.get('content-type'), csp: response.headers.get('content-security-policy') };
  };
  report.protocol = {
    index: await fetchStatus('keel://app/index.html'),
    traversal: await fetchStatus('keel://app/..%2f..%2fpackage.json'),
    missing: await fetchStatus('keel://app/nothing.js'),
  };

  // Navigation away, in the window and by redirect; new windows.
  const attempt = (event, url) => {
    let prevented = false;
    contents.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  };
  report.navigation = {
    external: attempt('will-navigate', 'https://example.com/'),
    file: attempt('will-navigate', 'file:///etc/passwd'),
    ownOrigin: attempt('will-navigate', 'keel://app/index.html'),
    otherHost: attempt('will-navigate', 'keel://other/index.html'),
    redirect: attempt('will-redirect', 'https://example.com/'),
  };
  report.windowOpen = [contents.openHandler({ url: 'https://docs.example/' }), contents.openHandler({ url: 'file:///etc/passwd' })];
  contents.permissionHandler(contents, 'media', (granted) => (report.permissionGranted = granted));

  // IPC from the window, and from a frame main does not know.
  const invoke = (channel, payload, sender = contents) => ipcHandlers.get(`keel:${channel}`)({ sender }, payload);
  report.ipc = {
    channels: ipcHandlers.size,
    info: await invoke('app.info', {}),
    stranger: await invoke('app.info', {}, new StandInWebContents()),
    keyStorage: (await invoke('settings.get', {})).value?.apiKey,
  };

  // File › Open Folder… with the picker answering STANDIN_PICK.
  const file = applicationMenu.find((item) => item.label === 'File');
  file.submenu.find((item) => item.label === 'Open Folder…').click();
  await until(() => report.titles.some((title) => title.includes(env.STANDIN_PICK)), 'the picked folder to open');

  // A second Keel started with another folder, while this window is minimised.
  window.minimized = true;
  // Unpackaged, as this run is: `electron <app entry> <folder>`.
  const entry = process.argv[1];
  app.emit('second-instance', {}, [process.execPath, entry, env.STANDIN_SECOND], '/');
  await until(() => report.titles.some((title) => title.includes(env.STANDIN_SECOND)), "the second instance's folder to open");
  report.secondInstanceFocus = [...window.focusCalls];
  // And one with a folder that cannot be opened.
  app.emit('second-instance', {}, [process.execPath, entry, '--enable-logging', '/nonexistent/keel-folder'], '/');

  // A shell with a process in the background, then quit.
  const tab = await invoke('terminal.create', { cols: 80, rows: 24 });
  if (!tab.ok) throw new Error(`terminal.create: ${tab.error.message}`);
  await invoke('terminal.input', { id: tab.value.id, data: `sleep 300.${env.STANDIN_MARKER} & nohup sleep 301.${env.STANDIN_MARKER} >/dev/null 2>&1 &\r` });
  report.runningBeforeQuit = await until(() => (liveWith(env.STANDIN_MARKER) === 2 ? 2 : 0), 'the two sleeps to run');
  app.quit();
}

/** KEEL_SANDBOX=required: a folder opened, its sandbox checked through a utility process, then quit. */
async function sandboxScenario() {
  const file = applicationMenu.find((item) => item.label === 'File');
  file.submenu.find((item) => item.label === 'Open Folder…').click();
  const checked = () => report.sent.find((event) => event.channel === 'keel:sandbox.changed' && event.payload?.state !== 'checking');
  report.sandbox = (await until(checked, 'the sandbox check', 30_000)).payload;
  report.helpersBeforeQuit = runningUtilities();
  app.quit();
}
