import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractMarkedPath, resolveLoginShellPath } from '../../../main/platform/loginPath';
import { TerminalManager } from '../../../main/terminal/terminalManager';
import { killProcessesWith, processesWith, uniqueMarker } from '../../unit/tools/bash/support';
import { BASH, readable, waitFor } from './support';

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A home whose login profile is `profile`, for a bash started as a login shell. */
function homeWithProfile(profile: string): string {
  const home = mkdtempSync(join(tmpdir(), 'keel-login-home-'));
  homes.push(home);
  writeFileSync(join(home, '.bash_profile'), profile);
  writeFileSync(join(home, '.bashrc'), '');
  return home;
}

describe('extractMarkedPath', () => {
  it('takes what lies between the first two markers, whatever the rc files print around it', () => {
    expect(extractMarkedPath('Welcome!\nlast login: today\nMRK/usr/local/bin:/usr/binMRKbye\n', 'MRK')).toBe('/usr/local/bin:/usr/bin');
    expect(extractMarkedPath('MRK/a:/b with space:/cMRK', 'MRK')).toBe('/a:/b with space:/c');
    expect(extractMarkedPath('MRK/firstMRK noise MRK/secondMRK', 'MRK')).toBe('/first');
  });

  it('finds nothing without both markers or with nothing between them', () => {
    expect(extractMarkedPath('', 'MRK')).toBeUndefined();
    expect(extractMarkedPath('/usr/bin', 'MRK')).toBeUndefined();
    expect(extractMarkedPath('MRK/usr/bin', 'MRK')).toBeUndefined();
    expect(extractMarkedPath('MRKMRK', 'MRK')).toBeUndefined();
    expect(extractMarkedPath('MRK  MRK', 'MRK')).toBeUndefined();
  });
});

describe('resolveLoginShellPath', () => {
  it('returns the PATH a login shell sets up, despite noise from its profile', async () => {
    const home = homeWithProfile('echo "Welcome to the test machine"\nexport PATH="/opt/keel-login-test/bin:$PATH"\necho bye >&2\n');
    const path = await resolveLoginShellPath({ shell: BASH, env: { ...process.env, HOME: home } });
    expect(path?.split(':')[0]).toBe('/opt/keel-login-test/bin');
  });

  it('tells the profile that Keel is only resolving the environment', async () => {
    const home = homeWithProfile('[ "$KEEL_RESOLVING_ENVIRONMENT" = 1 ] && PATH="/resolving:$PATH"\n');
    const path = await resolveLoginShellPath({ shell: BASH, env: { ...process.env, HOME: home } });
    expect(path?.startsWith('/resolving:')).toBe(true);
  });

  it('gives up on a profile that hangs, and kills it', { timeout: 20_000 }, async () => {
    const marker = uniqueMarker();
    const home = homeWithProfile(`sleep 30.${marker}\n`);
    try {
      // The profile sleeps 30 s; the test's 20 s timeout is the deadline for giving up on it.
      const path = await resolveLoginShellPath({ shell: BASH, env: { ...process.env, HOME: home }, timeoutMs: 500 });
      expect(path).toBeUndefined();
      await waitFor(() => processesWith(marker).length === 0, 'the hung profile to be killed', 10_000, 250);
    } finally {
      killProcessesWith(marker);
    }
  });

  it('returns nothing for a shell that cannot run', async () => {
    expect(await resolveLoginShellPath({ shell: '/nonexistent/shell' })).toBeUndefined();
  });
});

describe('terminals started from the desktop', () => {
  it("get the login shell's PATH", { timeout: 20_000 }, async () => {
    const home = homeWithProfile('export PATH="/opt/keel-desktop-test/bin:$PATH"\n');
    const saved = { HOME: process.env.HOME, SHELL: process.env.SHELL };
    Object.assign(process.env, { HOME: home, SHELL: BASH });
    const output: string[] = [];
    const decoder = new TextDecoder();
    const manager = new TerminalManager({
      emit: () => undefined,
      output: (_id, _seq, data) => output.push(decoder.decode(data, { stream: true })),
      workspace: () => home,
      loginPath: 'always',
    });
    try {
      const created = await manager.create({ cols: 80, rows: 24 });
      if (!created.ok) throw new Error(created.error.message);
      manager.input(created.value.id, 'echo "path=$PATH"\r');
      await waitFor(() => readable(output.join('')).includes('\npath=/opt/keel-desktop-test/bin:'), 'the login PATH in the shell');
    } finally {
      await manager.dispose();
      Object.assign(process.env, saved);
    }
  });
});
