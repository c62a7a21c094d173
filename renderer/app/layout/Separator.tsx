import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clamp } from './paneLayout';

interface Props {
  /** 'vertical': a line between two columns (moves left/right); 'horizontal': between rows. */
  orientation: 'vertical' | 'horizontal';
  label: string;
  /** The id of the pane whose size this separator sets. */
  controls: string;
  value: number;
  min: number;
  max: number;
  /** The size grows when the separator moves left / up (a pane after the separator). */
  inverted?: boolean;
  onChange(value: number): void;
  /** Double-click puts the default size back. */
  onReset?(): void;
}

const STEP = 16;
const BIG_STEP = 64;

/**
 * A window splitter (WAI-ARIA "separator" that can be focused): drag it with the pointer, or focus
 * it and use the arrow keys (Shift for bigger steps), Home and End. Its value is the size, in CSS
 * pixels, of the pane it controls.
 */
export function Separator({ orientation, label, controls, value, min, max, inverted = false, onChange, onReset }: Props) {
  const drag = useRef<{ pointer: number; start: number; from: number } | null>(null);
  const sign = inverted ? -1 : 1;
  const set = (next: number) => {
    const bounded = clamp(next, min, max);
    if (bounded !== value) onChange(bounded);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { pointer: event.pointerId, start: orientation === 'vertical' ? event.clientX : event.clientY, from: value };
    document.documentElement.classList.add(orientation === 'vertical' ? 'is-resizing-x' : 'is-resizing-y');
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointer !== event.pointerId) return;
    const position = orientation === 'vertical' ? event.clientX : event.clientY;
    set(current.from + sign * (position - current.start));
  };

  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointer !== event.pointerId) return;
    drag.current = null;
    document.documentElement.classList.remove('is-resizing-x', 'is-resizing-y');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const back = orientation === 'vertical' ? 'ArrowLeft' : 'ArrowUp';
    const forward = orientation === 'vertical' ? 'ArrowRight' : 'ArrowDown';
    let next: number | null = null;
    if (event.key === back) next = value - sign * step;
    else if (event.key === forward) next = value + sign * step;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    set(next);
  };

  return (
    <div
      role="separator"
      tabIndex={0}
      className={`separator separator-${orientation}`}
      aria-orientation={orientation}
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={Math.max(min, max)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onKeyDown={onKeyDown}
      onDoubleClick={onReset}
    />
  );
}
