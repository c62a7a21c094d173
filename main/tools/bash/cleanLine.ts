import stripAnsi from 'strip-ansi';

/**
 * Turns one raw terminal line (no `\n`) into what a reader needs: escape sequences removed and
 * carriage-return redraws collapsed. Colours and cursor tricks mean nothing to a model, and a
 * progress bar redrawn a thousand times with `\r` should cost one line, not a thousand.
 *
 * The kept state of a redrawn line is its last segment that has visible text: a spinner that
 * blanks itself before the newline still says what it was doing. Cursor movement across lines
 * (multi-line progress displays) is not emulated; those lines simply stay separate.
 */
export function cleanLine(raw: string): string {
  return removeControls(collapseRedraws(stripAnsi(trimLineEnd(raw))));
}

/** True when text is printable ASCII, tabs and line ends only: its lines need no more than cleanPlainLine. */
export function isPlainAscii(text: string): boolean {
  return !NOT_PLAIN.test(text);
}

const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;

/** cleanLine for a line known to be plain ASCII (no escapes, no controls): the fast path of a flood. */
export function cleanPlainLine(raw: string): string {
  return collapseRedraws(trimLineEnd(raw));
}

/** A pty ends lines with \r\n (\r\r\n when the program wrote \r\n itself): that \r is no redraw. */
function trimLineEnd(raw: string): string {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 13) end--;
  return end === raw.length ? raw : raw.slice(0, end);
}

function collapseRedraws(line: string): string {
  return line.includes('\r') ? lastVisibleSegment(line) : line;
}

function lastVisibleSegment(line: string): string {
  const segments = line.split('\r');
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i] ?? '';
    if (segment.trim() !== '') return segment;
  }
  return '';
}

// C0 controls other than tab and newline, and DEL: garbage in a model's input. Backspace is among them.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS_GLOBAL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Backspace erases the character before it (overstrike, as in `man` output); other controls go. */
function removeControls(line: string): string {
  if (!CONTROLS.test(line)) return line;
  if (!line.includes('\b')) return line.replace(CONTROLS_GLOBAL, '');
  const chars: string[] = [];
  for (const char of line) {
    if (char === '\b') chars.pop();
    else chars.push(char);
  }
  return chars.join('').replace(CONTROLS_GLOBAL, '');
}
