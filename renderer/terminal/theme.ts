import type { ITheme } from '@xterm/xterm';

/** Colours of the ANSI palette that the app's stylesheet has no variable for, per theme. */
const PALETTES = {
  light: {
    black: '#1b1b1f',
    magenta: '#9a3fa6',
    cyan: '#0f7488',
    white: '#8b8d96',
    brightBlack: '#676872',
    brightRed: '#e0443f',
    brightGreen: '#2f9e63',
    brightYellow: '#b87a12',
    brightBlue: '#4f5bc4',
    brightMagenta: '#b552c2',
    brightCyan: '#1690a8',
    brightWhite: '#4a4b53',
  },
  dark: {
    black: '#363842',
    magenta: '#d08cf0',
    cyan: '#4fc1d1',
    white: '#b4b6c0',
    brightBlack: '#7d808c',
    brightRed: '#ffa198',
    brightGreen: '#6fdca6',
    brightYellow: '#f5c77e',
    brightBlue: '#a5acf7',
    brightMagenta: '#e2b0f7',
    brightCyan: '#7fd8e4',
    brightWhite: '#ffffff',
  },
} as const;

export type ThemeName = keyof typeof PALETTES;

export function currentThemeName(): ThemeName {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

/**
 * The terminal's colours, read from the app's CSS variables (renderer/styles.css) so that it
 * follows the light and dark themes: the panel's background, the text colour, the accent for the
 * cursor and the selection, and the state colours for red, green, yellow and blue.
 */
export function terminalTheme(): ITheme {
  const name = currentThemeName();
  const css = getComputedStyle(document.documentElement);
  const read = (variable: string, fallback: string) => css.getPropertyValue(variable).trim() || fallback;
  const accent = read('--accent', name === 'dark' ? '#7a84f0' : '#5e6ad2');
  const background = read('--panel', name === 'dark' ? '#15161a' : '#ffffff');
  return {
    background,
    foreground: read('--text', name === 'dark' ? '#e6e6ea' : '#1b1b1f'),
    cursor: accent,
    cursorAccent: background,
    selectionBackground: withAlpha(accent, name === 'dark' ? '66' : '40'),
    selectionInactiveBackground: withAlpha(accent, name === 'dark' ? '40' : '26'),
    scrollbarSliderBackground: withAlpha(read('--muted', '#676872'), '40'),
    scrollbarSliderHoverBackground: withAlpha(read('--muted', '#676872'), '66'),
    scrollbarSliderActiveBackground: withAlpha(read('--muted', '#676872'), '80'),
    red: read('--danger', '#c9302c'),
    green: read('--done-text', '#1d7446'),
    yellow: read('--progress-text', '#94560a'),
    blue: accent,
    ...PALETTES[name],
  };
}

/** `#rrggbb` with an alpha byte; anything else (a named colour) as it is. */
function withAlpha(colour: string, alpha: string): string {
  return /^#[0-9a-f]{6}$/i.test(colour) ? `${colour}${alpha}` : colour;
}

/** The monospace font stack of the app (--mono). */
export function terminalFont(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--mono').trim() || 'monospace';
}
