import { fallbackLocale } from '../platform/locale';
import { TERMINAL_MARKER_VARIABLE } from '../platform/processMarker';

export { TERMINAL_MARKER_VARIABLE };

export interface TerminalEnvOptions {
  /** This tab's unique value of TERMINAL_MARKER_VARIABLE. */
  marker: string;
  /** The login shell's PATH, when it was resolved; otherwise the inherited PATH stays. */
  path?: string;
  platform?: NodeJS.Platform;
}

/** Set by Electron, or by a parent that ran Keel as plain Node; a program started from the tab must not inherit them. */
const HOST_ONLY_VARIABLES = ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'KEEL_RESOLVING_ENVIRONMENT'];

/**
 * The environment of a person's shell in a tab: Keel's own, with what a terminal emulator
 * promises (TERM, COLORTERM for 24-bit colour, TERM_PROGRAM), a UTF-8 locale when none is set
 * (else CJK text and emoji come out as `?` or escapes in many programs), the login-shell PATH
 * and the tab's marker.
 */
export function terminalEnvironment(base: NodeJS.ProcessEnv, options: TerminalEnvOptions): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const env: Record<string, string | undefined> = { ...base };
  // The pty's size is the truth; values inherited from the terminal Keel was started in would lie.
  delete env.COLUMNS;
  delete env.LINES;
  for (const name of HOST_ONLY_VARIABLES) delete env[name];
  // Electron on Linux rewrites XDG_CURRENT_DESKTOP for Chromium and keeps the person's value here.
  if (env.ORIGINAL_XDG_CURRENT_DESKTOP !== undefined) {
    env.XDG_CURRENT_DESKTOP = env.ORIGINAL_XDG_CURRENT_DESKTOP;
    delete env.ORIGINAL_XDG_CURRENT_DESKTOP;
  }
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  env.TERM_PROGRAM = 'Keel';
  const lang = fallbackLocale(env, platform);
  if (lang !== undefined) env.LANG = lang;
  if (options.path !== undefined && platform !== 'win32') env.PATH = options.path;
  env[TERMINAL_MARKER_VARIABLE] = options.marker;
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
  return defined;
}
