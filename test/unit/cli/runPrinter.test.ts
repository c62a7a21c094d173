import { describe, expect, it } from 'vitest';
import { ControlStripper, stripControls } from '../../../main/cli/controlStripper';
import { RunPrinter } from '../../../main/cli/runPrinter';

describe('control sequences are stripped from what keel run prints', () => {
  it('CSI, OSC (BEL or ST), DCS, C1 and C0 controls go; text, newlines and tabs stay', () => {
    expect(stripControls('a\x1b[31mb\x1b[0m c')).toBe('ab c');
    expect(stripControls('x\x1b]0;title\x07y\x1b]8;;http://e\x1b\\z')).toBe('xyz');
    expect(stripControls('p\x1bP1$r0m\x1b\\q')).toBe('pq');
    expect(stripControls('1\x9b2J2\x9d0;t\x9c3\x85')).toBe('123');
    expect(stripControls('bell\x07 back\x08 cr\r nul\x00 del\x7f tab\tline\n中文')).toBe('bell back cr nul del tab\tline\n中文');
    expect(stripControls('keep ( B ESC(B\x1b(Bend\x1b7')).toBe('keep ( B ESC(Bend');
    expect(stripControls('open \x1b]0;never ends')).toBe('open ');
  });

  it('a sequence split across streamed chunks is held, never half-printed', () => {
    const stripper = new ControlStripper();
    const chunks = ['before \x1b', ']0;ti', 'tle\x07 after \x1b[', '31', 'mred'];
    expect(chunks.map((c) => stripper.write(c)).join('')).toBe('before  after red');
  });

  it('the printer strips model text, tool lines and commands, and shows every line of a command', () => {
    let out = '';
    const printer = new RunPrinter({ write: (text) => (out += text) });
    printer.event({ type: 'text', delta: 'Hi \x1b]0;title' });
    printer.event({ type: 'text', delta: '\x07there\n' });
    printer.event({ type: 'tool_call', id: 't', name: 'bash', input: { command: 'echo \x1b[2Jone\necho two\n' } });
    printer.event({ type: 'tool_result', id: 't', name: 'bash', content: '\x1b[31mone\x1b[0m\ntwo', isError: false });
    expect([...out].filter((c) => c !== '\n' && c !== '\t' && (c < ' ' || (c >= '\x7f' && c <= '\x9f')))).toEqual([]);
    expect(out).toContain('Hi there\n');
    expect(out).toContain('● bash $ echo one\n    echo two\n');
    expect(out).toContain('⎿ one (+1 lines)');
  });
});
