/** Environment variable that marks every process Keel starts for one tab or run, so its tree can be found. */
export const TERMINAL_MARKER_VARIABLE = 'KEEL_TERMINAL';
