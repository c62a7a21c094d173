/* The shell's small inline icons; decorative (aria-hidden): every control carries its own name. */

const base = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', 'aria-hidden': true, focusable: false } as const;
const stroke = { stroke: 'currentColor', strokeWidth: 1.4, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function GearIcon() {
  return (
    <svg {...base}>
      <circle cx="8" cy="8" r="2.2" {...stroke} />
      <path
        d="M8 1.8v1.6M8 12.6v1.6M14.2 8h-1.6M3.4 8H1.8M12.4 3.6l-1.1 1.1M4.7 11.3l-1.1 1.1M12.4 12.4l-1.1-1.1M4.7 4.7L3.6 3.6"
        {...stroke}
      />
      <circle cx="8" cy="8" r="4.6" {...stroke} />
    </svg>
  );
}

export function SidebarIcon() {
  return (
    <svg {...base}>
      <rect x="2" y="3" width="12" height="10" rx="1.6" {...stroke} />
      <path d="M6 3v10" {...stroke} />
    </svg>
  );
}

export function ChevronIcon({ direction = 'down' }: { direction?: 'down' | 'up' | 'right' }) {
  const d = direction === 'down' ? 'M4.5 6.5L8 10l3.5-3.5' : direction === 'up' ? 'M4.5 9.5L8 6l3.5 3.5' : 'M6.5 4.5L10 8l-3.5 3.5';
  return (
    <svg {...base}>
      <path d={d} {...stroke} />
    </svg>
  );
}

export function TerminalIcon() {
  return (
    <svg {...base}>
      <rect x="1.8" y="2.8" width="12.4" height="10.4" rx="1.6" {...stroke} />
      <path d="M4.5 6.5L6.5 8l-2 1.5M8 10h3" {...stroke} />
    </svg>
  );
}

export function CloseIcon() {
  return (
    <svg {...base}>
      <path d="M4 4l8 8M12 4l-8 8" {...stroke} />
    </svg>
  );
}

export function ShieldIcon() {
  return (
    <svg {...base}>
      <path d="M8 1.8l5 1.9v3.8c0 3.1-2.1 5.6-5 6.7-2.9-1.1-5-3.6-5-6.7V3.7z" {...stroke} />
    </svg>
  );
}

export function ChatIcon() {
  return (
    <svg {...base}>
      <path d="M2.5 4.2A1.7 1.7 0 0 1 4.2 2.5h7.6a1.7 1.7 0 0 1 1.7 1.7v5a1.7 1.7 0 0 1-1.7 1.7H7l-3 2.6v-2.6h0a1.7 1.7 0 0 1-1.5-1.7z" {...stroke} />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg {...base}>
      <path d="M3.5 8.3l2.8 2.8 6.2-6.4" {...stroke} strokeWidth={1.6} />
    </svg>
  );
}

export function AlertIcon() {
  return (
    <svg {...base}>
      <path d="M8 2.2l6.2 11H1.8z" {...stroke} />
      <path d="M8 6.5v3M8 11.4v.1" {...stroke} />
    </svg>
  );
}
