/**
 * Removes terminal control sequences from text that came from a model or a tool before it reaches
 * a person's terminal: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC \`), DCS/SOS/PM/APC strings,
 * other escapes, the C1 controls (U+0080–U+009F, which some terminals obey as escapes), DEL, and
 * every C0 control but newline and tab. A sequence split across chunks is held until it ends, so a
 * stream cut mid-escape cannot smuggle its tail through.
 */
export class ControlStripper {
  private state: 'text' | 'esc' | 'intermediate' | 'csi' | 'string' | 'stringEsc' = 'text';

  write(chunk: string): string {
    let out = '';
    for (const c of chunk) {
      const code = c.codePointAt(0)!;
      switch (this.state) {
        case 'text':
          if (code === 0x1b) this.state = 'esc';
          else if (code === 0x9b) this.state = 'csi';
          else if (code === 0x90 || code === 0x98 || code === 0x9d || code === 0x9e || code === 0x9f) this.state = 'string';
          else if (c === '\n' || c === '\t' || !isControl(code)) out += c;
          break;
        case 'esc':
          if (c === '[') this.state = 'csi';
          else if (c === ']' || c === 'P' || c === 'X' || c === '^' || c === '_') this.state = 'string';
          else if (code >= 0x20 && code <= 0x2f) this.state = 'intermediate';
          else this.state = code === 0x1b ? 'esc' : 'text';
          break;
        case 'intermediate':
          if (code < 0x20 || code > 0x2f) this.state = 'text';
          break;
        case 'csi':
          // Parameters and intermediates run 0x20–0x3F; a final byte 0x40–0x7E ends the sequence.
          if (code >= 0x40 && code <= 0x7e) this.state = 'text';
          else if (code === 0x1b) this.state = 'esc';
          else if (code < 0x20 || code > 0x7e) this.state = 'text';
          break;
        case 'string':
          if (code === 0x07 || code === 0x9c) this.state = 'text';
          else if (code === 0x1b) this.state = 'stringEsc';
          break;
        case 'stringEsc':
          this.state = c === '\\' ? 'text' : code === 0x1b ? 'stringEsc' : 'string';
          break;
      }
    }
    return out;
  }

  /** Forgets a sequence left open (the stream it came from has ended). */
  reset(): void {
    this.state = 'text';
  }
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** The text with every control sequence removed; an unterminated one is dropped to the end. */
export function stripControls(text: string): string {
  return new ControlStripper().write(text);
}
