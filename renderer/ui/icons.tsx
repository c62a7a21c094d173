import type { PlanStatus } from '../../common/plan/types';

/*
 * The one set of small inline icons, for every feature folder. All decorative (aria-hidden): every
 * control carries its own accessible name. 16 px unless a caller asks for a size.
 */

const base = { width: 16, height: 16, viewBox: '0 0 16 16', fill: 'none', 'aria-hidden': true, focusable: false } as const;
const stroke = { stroke: 'currentColor', strokeWidth: 1.5, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
/** The window frame's icons (header, panels) are drawn a touch finer. */
const thinStroke = { ...stroke, strokeWidth: 1.4 } as const;

export function StatusIcon({ status }: { status: PlanStatus }) {
  if (status === 'completed') {
    return (
      <svg {...base} className="status-icon status-icon-completed">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M4.8 8.2l2.1 2.1 4.3-4.5" stroke="var(--on-accent)" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  if (status === 'in_progress') {
    return (
      <svg {...base} className="status-icon status-icon-in_progress">
        <circle cx="8" cy="8" r="6.25" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 3.5a4.5 4.5 0 0 1 0 9z" fill="currentColor" />
      </svg>
    );
  }
  return (
    <svg {...base} className="status-icon status-icon-pending">
      <circle cx="8" cy="8" r="6.25" stroke="currentColor" strokeWidth="1.5" strokeDasharray="2.6 1.9" />
    </svg>
  );
}

export function ArrowUpIcon() {
  return (
    <svg {...base}>
      <path d="M8 12.5v-9M4.5 7L8 3.5 11.5 7" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function ArrowDownIcon({ size = 16 }: { size?: number }) {
  return (
    <svg {...base} width={size} height={size}>
      <path d="M8 3.5v9M4.5 9L8 12.5 11.5 9" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg {...base}>
      <path
        d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.2a1 1 0 0 0 1 .8h3.8a1 1 0 0 0 1-.8l.6-8.2"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function GripIcon() {
  return (
    <svg {...base} viewBox="0 0 10 16" width={10}>
      {[3, 8, 13].map((y) => (
        <g key={y} fill="currentColor">
          <circle cx="3" cy={y} r="1.2" />
          <circle cx="7" cy={y} r="1.2" />
        </g>
      ))}
    </svg>
  );
}

/** A step waiting for others: two linked rings. */
export function LinkIcon({ size = 16 }: { size?: number }) {
  return (
    <svg {...base} width={size} height={size}>
      <path d="M6.8 9.2a2.6 2.6 0 0 0 3.7 0l2-2a2.6 2.6 0 0 0-3.7-3.7l-.7.7M9.2 6.8a2.6 2.6 0 0 0-3.7 0l-2 2a2.6 2.6 0 0 0 3.7 3.7l.7-.7" {...stroke} />
    </svg>
  );
}

export function PlusIcon() {
  return (
    <svg {...base}>
      <path d="M8 3.5v9M3.5 8h9" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export function FolderIcon() {
  return (
    <svg {...base}>
      <path
        d="M2 4.5A1.5 1.5 0 0 1 3.5 3h2.6l1.5 1.5h4.9A1.5 1.5 0 0 1 14 6v5.5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function KeelMark() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <rect width="20" height="20" rx="5" fill="var(--accent)" />
      <path d="M5 7.5h10l-2.2 5.5H7.2z" fill="var(--on-accent)" />
      <path d="M10 3.5v4" stroke="var(--on-accent)" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export function GearIcon() {
  return (
    <svg {...base}>
      <circle cx="8" cy="8" r="2.2" {...thinStroke} />
      <path d="M8 1.8v1.6M8 12.6v1.6M14.2 8h-1.6M3.4 8H1.8M12.4 3.6l-1.1 1.1M4.7 11.3l-1.1 1.1M12.4 12.4l-1.1-1.1M4.7 4.7L3.6 3.6" {...thinStroke} />
      <circle cx="8" cy="8" r="4.6" {...thinStroke} />
    </svg>
  );
}

export function SidebarIcon() {
  return (
    <svg {...base}>
      <rect x="2" y="3" width="12" height="10" rx="1.6" {...thinStroke} />
      <path d="M6 3v10" {...thinStroke} />
    </svg>
  );
}

export function CloseIcon() {
  return (
    <svg {...base}>
      <path d="M4 4l8 8M12 4l-8 8" {...thinStroke} />
    </svg>
  );
}

export function ChatIcon() {
  return (
    <svg {...base}>
      <path d="M2.5 4.2A1.7 1.7 0 0 1 4.2 2.5h7.6a1.7 1.7 0 0 1 1.7 1.7v5a1.7 1.7 0 0 1-1.7 1.7H7l-3 2.6v-2.6h0a1.7 1.7 0 0 1-1.5-1.7z" {...thinStroke} />
    </svg>
  );
}

/** A disclosure chevron: points right, turns down when `open` (a CSS rotation, so it can animate). */
export function ChevronIcon({ open, size = 16, className }: { open: boolean; size?: number; className?: string }) {
  const classes = ['disclosure-chevron', className, open ? 'is-open' : ''].filter(Boolean).join(' ');
  return (
    <svg {...base} width={size} height={size} className={classes}>
      <path d="M6 3.5L10.5 8 6 12.5" {...stroke} />
    </svg>
  );
}

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
      <path
        d="M9.5 2.5a3 3 0 0 0-2.8 4.1L2.5 10.8a1.2 1.2 0 0 0 0 1.7l1 1a1.2 1.2 0 0 0 1.7 0l4.2-4.2A3 3 0 0 0 13.5 6.5l-1.8 1.8-1.6-.4-.4-1.6 1.8-1.8a3 3 0 0 0-2-2"
        {...stroke}
      />
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
