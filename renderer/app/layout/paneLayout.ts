/*
 * The window's pane sizes: the sessions sidebar and the plan column (widths), the terminal panel
 * (height), and whether the sidebar and the terminal are shown. Pure apart from localStorage, where
 * they are remembered so that a reload (or the next start) restores them.
 */

export interface PaneLayout {
  sidebar: number;
  plan: number;
  terminal: number;
  sidebarOpen: boolean;
  terminalOpen: boolean;
}

export type PaneSize = 'sidebar' | 'plan' | 'terminal';

export const DEFAULT_LAYOUT: PaneLayout = { sidebar: 248, plan: 380, terminal: 220, sidebarOpen: true, terminalOpen: false };

/** Each size's own bounds in CSS pixels; the window's size may narrow the maximum further. */
export const SIZE_LIMITS: Record<PaneSize, { min: number; max: number }> = {
  sidebar: { min: 180, max: 420 },
  plan: { min: 260, max: 720 },
  terminal: { min: 100, max: 640 },
};

/** What the chat keeps at least, beside the plan; what the panes keep above the terminal. */
export const CHAT_MIN_WIDTH = 280;
/** Below this window width the sessions sidebar no longer sits beside the panes: it lies over them when shown. */
export const NARROW_WINDOW = 1100;

/**
 * The widest the plan may be beside the chat in `available` pixels: the chat keeps at least half
 * (and never less than CHAT_MIN_WIDTH), so a narrow window shrinks the plan before the chat.
 */
export function planMaxWidth(available: number, separator: number): number {
  return Math.min(SIZE_LIMITS.plan.max, Math.floor(available - Math.max(CHAT_MIN_WIDTH, available / 2) - separator));
}
export const PANES_MIN_HEIGHT = 200;

export const LAYOUT_STORAGE_KEY = 'keel.layout.v1';

export const clamp = (value: number, min: number, max: number): number => Math.round(Math.min(Math.max(value, min), Math.max(min, max)));

/** The stored layout, each value checked; anything missing or broken falls back to the default. */
export function parseLayout(raw: string | null): PaneLayout {
  let stored: Partial<Record<keyof PaneLayout, unknown>> = {};
  try {
    const value: unknown = raw === null ? {} : JSON.parse(raw);
    if (typeof value === 'object' && value !== null) stored = value as typeof stored;
  } catch {
    // A broken entry is forgotten.
  }
  const size = (name: PaneSize): number => {
    const value = stored[name];
    return typeof value === 'number' && Number.isFinite(value) ? clamp(value, SIZE_LIMITS[name].min, SIZE_LIMITS[name].max) : DEFAULT_LAYOUT[name];
  };
  const flag = (name: 'sidebarOpen' | 'terminalOpen'): boolean => (typeof stored[name] === 'boolean' ? (stored[name] as boolean) : DEFAULT_LAYOUT[name]);
  return { sidebar: size('sidebar'), plan: size('plan'), terminal: size('terminal'), sidebarOpen: flag('sidebarOpen'), terminalOpen: flag('terminalOpen') };
}

export function loadLayout(): PaneLayout {
  try {
    return parseLayout(localStorage.getItem(LAYOUT_STORAGE_KEY));
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
}

export function saveLayout(layout: PaneLayout): void {
  try {
    localStorage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(layout));
  } catch {
    // Not remembered, still applied.
  }
}
