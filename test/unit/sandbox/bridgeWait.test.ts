import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { afterBridges } from '../../../main/sandbox/bridgeWait';

// The wait the helper puts before every sandboxed command, run by a real bash against a tcp table
// written here (the sandbox's own /proc/net/tcp is only there inside bubblewrap).

const dir = mkdtempSync(join(tmpdir(), 'keel-bridge-wait-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
const line = (port: number, state: string) =>
  `   0: 00000000:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000     0        0 1 1\n`;

function table(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, header + lines.join(''));
  return file;
}

function bash(script: string) {
  return spawnSync('/bin/bash', ['-c', script], { encoding: 'utf8' });
}

describe('the wait for the network bridges', () => {
  it('lets the command run once both bridge ports listen, with its own output and exit status', () => {
    const tcpTable = table('both', [line(3128, '0A'), line(1080, '0A')]);
    const r = bash(afterBridges('echo ran; exit 7', { tcpTable, limitMs: 60_000 }));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ran\n');
    expect(r.status).toBe(7);
  });

  it('holds the command while one bridge only connects but does not listen, then runs it anyway', () => {
    // 1080 in state 01 (ESTABLISHED) is not a listener: the command still runs, after the limit.
    const tcpTable = table('one', [line(3128, '0A'), line(1080, '01')]);
    const r = bash(afterBridges('echo "ran late"', { tcpTable, limitMs: 40 }) + '\necho "[$__keel_n]"');
    expect(r.stdout).toBe('ran late\n[]\n');
  });

  it('starts the command as soon as the table shows the listeners', () => {
    const tcpTable = table('later', [line(3128, '0A')]);
    // The command records whether 1080 was listed when it started: the wait must have seen it.
    const r = bash(
      `(sleep 0.2; printf '%s' '${line(1080, '0A')}' >> '${tcpTable}') &\n` + afterBridges(`grep -c ':0438 ' '${tcpTable}'`, { tcpTable, limitMs: 60_000 }),
    );
    expect(r.stdout.trim()).toBe('1');
  });

  it('passes the command through unchanged: quotes, ;, $() and newlines', () => {
    const tcpTable = table('quotes', [line(3128, '0A'), line(1080, '0A')]);
    const r = bash(afterBridges(`echo "it's"; echo 'a "b"' ; echo $(echo sub)\necho second-line`, { tcpTable }));
    expect(r.stdout).toBe(`it's\na "b"\nsub\nsecond-line\n`);
  });
});
