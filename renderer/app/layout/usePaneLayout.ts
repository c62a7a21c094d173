import { useCallback, useEffect, useState } from 'react';
import { clamp, loadLayout, saveLayout, SIZE_LIMITS, type PaneLayout, type PaneSize } from './paneLayout';

export interface PaneLayoutState {
  layout: PaneLayout;
  resize(name: PaneSize, value: number): void;
  toggle(name: 'sidebarOpen' | 'terminalOpen', open?: boolean): void;
}

/** The pane sizes, restored from localStorage and remembered on every change. */
export function usePaneLayout(): PaneLayoutState {
  const [layout, setLayout] = useState<PaneLayout>(loadLayout);

  useEffect(() => saveLayout(layout), [layout]);

  const resize = useCallback((name: PaneSize, value: number) => {
    setLayout((current) => {
      const next = clamp(value, SIZE_LIMITS[name].min, SIZE_LIMITS[name].max);
      return current[name] === next ? current : { ...current, [name]: next };
    });
  }, []);

  const toggle = useCallback((name: 'sidebarOpen' | 'terminalOpen', open?: boolean) => {
    setLayout((current) => ({ ...current, [name]: open ?? !current[name] }));
  }, []);

  return { layout, resize, toggle };
}
