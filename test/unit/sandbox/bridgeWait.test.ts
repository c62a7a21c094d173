import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { afterBridges } from '../../../main/sandbox/bridgeWait';

// The wait the helper puts before every sandboxed command, run by a real bash against socket
// counts written here (the sandbox's own /proc/net/sockstat, counting only its bridges' sockets,
// is there only inside bubblewrap).

const dir = mkdtempSync(join(tmpdir(), 'keel-bridge-wait-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A namespace's counts as the kernel words them, with `listening` TCP sockets in use. */
const counts = (listening: number) =>
  `sockets: used ${listening + 1}\nTCP: inuse ${listening} orphan 0 tw 0 alloc 40 mem 2\nUDP: inuse 0 mem 0\nUDPLITE: inuse 0\nRAW: inuse 0\nFRAG: inuse 0 memory 0\n`;

function sockstat(name: string, listening: number): string {
  const file = join(dir, name);
  writeFileSync(file, counts(listening));
  return file;
}

/** A wait that holds past 20 s is killed, so the command's output is missing. */
function bash(script: string) {
  return spawnSync('/bin/bash', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
}

describe('the wait for the network bridges', () => {
  it('lets the command run once both bridges listen, with its own output and exit status', () => {
    const file = sockstat('both', 2);
    const r = bash(afterBridges('echo ran; exit 7', { sockstat: file, limitMs: 60_000 }));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ran\n');
    expect(r.status).toBe(7);
  });

  it('holds the command while only one bridge listens, then runs it anyway, leaving none of its variables', () => {
    const file = sockstat('one', 1);
    const r = bash(afterBridges('echo "ran late"', { sockstat: file, limitMs: 40 }) + '\necho "[$__keel_n$__keel_stat${BASH_REMATCH[1]}]"');
    expect(r.stdout).toBe('ran late\n[]\n');
  });

  it('starts the command as soon as the counts show both bridges listening', () => {
    const file = sockstat('later', 1);
    // The command records the count it started at: the wait must have seen the second bridge.
    const r = bash(
      `(sleep 0.2; printf '%s' '${counts(2)}' > '${file}.new'; mv '${file}.new' '${file}') &\n` +
        afterBridges(`grep -o 'TCP: inuse [0-9]*' '${file}'`, { sockstat: file, limitMs: 60_000 }),
    );
    expect(r.stdout.trim()).toBe('TCP: inuse 2');
  });

  it('does not hold the command when the counts cannot be read', () => {
    // Held, it would start only after the minute: killed before, it prints nothing.
    const r = bash(afterBridges('echo ran', { sockstat: join(dir, 'missing'), limitMs: 60_000 }));
    expect(r.stdout).toBe('ran\n');
  });

  it('passes the command through unchanged: quotes, ;, $() and newlines', () => {
    const file = sockstat('quotes', 2);
    const r = bash(afterBridges(`echo "it's"; echo 'a "b"' ; echo $(echo sub)\necho second-line`, { sockstat: file }));
    expect(r.stdout).toBe(`it's\na "b"\nsub\nsecond-line\n`);
  });
});
