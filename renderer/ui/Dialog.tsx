import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first, Shift+Tab from the first to the last: focus never leaves. */
function trapTab(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
  // A radio group is one stop: only its checked radio (or its first) takes part.
  const stops = controls.filter((element) => !(element instanceof HTMLInputElement && element.type === 'radio' && !element.checked));
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

interface Props {
  /** Called on Escape and whenever the dialog closes by itself. */
  onClose(): void;
  labelledBy: string;
  describedBy?: string;
  /** 'alertdialog' for a confirmation that interrupts. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /** Where the focus goes on close when the element that had it before is gone (a banner that left). */
  fallbackFocus?: () => HTMLElement | null;
  children: ReactNode;
}

/**
 * A modal dialog on the platform's <dialog>: showModal() makes the rest of the window inert (focus
 * stays inside) and Escape closes it. Focus starts on the element marked `data-autofocus` (or the
 * first control) and goes back where it was when the dialog closes (else to `fallbackFocus`). Render it only while open.
 */
export function Dialog({ onClose, labelledBy, describedBy, role = 'dialog', className = '', fallbackFocus, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  const fallback = useRef(fallbackFocus);
  useLayoutEffect(() => {
    close.current = onClose;
    fallback.current = fallbackFocus;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const active = document.activeElement;
    const returnTo = active instanceof HTMLElement && active !== document.body ? active : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onNativeClose = () => close.current();
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (returnTo?.isConnected) returnTo.focus();
      else fallback.current?.()?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      className={`dialog ${className}`}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-modal="true"
      onKeyDown={trapTab}
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
    >
      {children}
    </dialog>
  );
}
