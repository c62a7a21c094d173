/* The chat's small inline icons; all decorative (aria-hidden): every control carries its own name. */

const base = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', 'aria-hidden': true, focusable: false } as const;
const stroke = { stroke: 'currentColor', strokeWidth: 1.5, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function CopyIcon() {
  return (
    <svg {...base} width={14} height={14}>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" {...stroke} />
      <path d="M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" {...stroke} />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg {...base} width={14} height={14}>
      <path d="M3.5 8.5l3 3 6-7" {...stroke} />
    </svg>
  );
}

export function ChevronIcon({ open }: { open: boolean }) {
  return (
    <svg {...base} width={12} height={12} className={open ? 'chevron is-open' : 'chevron'}>
      <path d="M6 3.5L10.5 8 6 12.5" {...stroke} />
    </svg>
  );
}

export function TerminalIcon() {
  return (
    <svg {...base}>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="2" {...stroke} />
      <path d="M4.5 6.5L6.5 8.25 4.5 10M8.5 10.5h3" {...stroke} />
    </svg>
  );
}

export function FileEditIcon() {
  return (
    <svg {...base}>
      <path d="M9 1.75H4.25a1.5 1.5 0 0 0-1.5 1.5v9.5a1.5 1.5 0 0 0 1.5 1.5h7.5a1.5 1.5 0 0 0 1.5-1.5V6z" {...stroke} />
      <path d="M9 1.75V6h4.25M5.75 10.5l3.5-3.5 1.25 1.25-3.5 3.5H5.75z" {...stroke} />
    </svg>
  );
}

export function FileIcon() {
  return (
    <svg {...base}>
      <path d="M9 1.75H4.25a1.5 1.5 0 0 0-1.5 1.5v9.5a1.5 1.5 0 0 0 1.5 1.5h7.5a1.5 1.5 0 0 0 1.5-1.5V6z" {...stroke} />
      <path d="M9 1.75V6h4.25M5.5 9h5M5.5 11.5h3.5" {...stroke} />
    </svg>
  );
}

export function SearchIcon() {
  return (
    <svg {...base}>
      <circle cx="7" cy="7" r="4.25" {...stroke} />
      <path d="M10.25 10.25l3.5 3.5" {...stroke} />
    </svg>
  );
}

export function ListIcon() {
  return (
    <svg {...base}>
      <path d="M5.5 4h8M5.5 8h8M5.5 12h8" {...stroke} />
      <circle cx="2.75" cy="4" r=".9" fill="currentColor" />
      <circle cx="2.75" cy="8" r=".9" fill="currentColor" />
      <circle cx="2.75" cy="12" r=".9" fill="currentColor" />
    </svg>
  );
}

export function PlanIcon() {
  return (
    <svg {...base}>
      <rect x="2.25" y="1.75" width="11.5" height="12.5" rx="2" {...stroke} />
      <path d="M5 5.5l1 1 2-2M5 10l1 1 2-2M9.75 5.75h1.5M9.75 10.25h1.5" {...stroke} />
    </svg>
  );
}

export function ToolIcon() {
  return (
    <svg {...base}>
      <path d="M9.5 2.5a3 3 0 0 0-2.8 4.1L2.5 10.8a1.2 1.2 0 0 0 0 1.7l1 1a1.2 1.2 0 0 0 1.7 0l4.2-4.2A3 3 0 0 0 13.5 6.5l-1.8 1.8-1.6-.4-.4-1.6 1.8-1.8a3 3 0 0 0-2-2" {...stroke} />
    </svg>
  );
}

export function AlertIcon() {
  return (
    <svg {...base}>
      <path d="M8 1.75L14.5 13.5h-13z" {...stroke} />
      <path d="M8 6v3.5" {...stroke} />
      <circle cx="8" cy="11.5" r=".85" fill="currentColor" />
    </svg>
  );
}

export function ShieldIcon() {
  return (
    <svg {...base}>
      <path d="M8 1.75l5.25 2v4c0 3.1-2.2 5.4-5.25 6.5C4.95 13.15 2.75 10.85 2.75 7.75v-4z" {...stroke} />
      <path d="M8 5.25v3.25" {...stroke} />
      <circle cx="8" cy="10.75" r=".85" fill="currentColor" />
    </svg>
  );
}

export function StopIcon() {
  return (
    <svg {...base} width={12} height={12}>
      <rect x="3" y="3" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  );
}

export function SendIcon() {
  return (
    <svg {...base} width={14} height={14}>
      <path d="M8 13V3.5M3.75 7.5L8 3.25l4.25 4.25" {...stroke} strokeWidth={1.75} />
    </svg>
  );
}

export function InfoIcon() {
  return (
    <svg {...base}>
      <circle cx="8" cy="8" r="6.25" {...stroke} />
      <path d="M8 7.25v4" {...stroke} />
      <circle cx="8" cy="4.9" r=".85" fill="currentColor" />
    </svg>
  );
}

export function DoneIcon() {
  return (
    <svg {...base}>
      <circle cx="8" cy="8" r="6.25" {...stroke} />
      <path d="M5.25 8.25l1.9 1.9 3.6-3.9" {...stroke} />
    </svg>
  );
}

/** Turns on its own compositor layer (an HTML box, not the SVG), so it costs the main thread nothing per frame. */
export function Spinner() {
  return (
    <span className="spinner" aria-hidden="true">
      <svg {...base}>
        <circle cx="8" cy="8" r="6" stroke="currentColor" strokeOpacity=".25" strokeWidth="2" />
        <path d="M14 8a6 6 0 0 0-6-6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </span>
  );
}

export function ArrowDownIcon() {
  return (
    <svg {...base} width={14} height={14}>
      <path d="M8 3v10M3.75 8.75L8 13l4.25-4.25" {...stroke} />
    </svg>
  );
}
