/** Strings of the window's shell: header, layout, status bar, sessions, settings. */
export const app = {
  'app.name': 'Keel',
} as const;
