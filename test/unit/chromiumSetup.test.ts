import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from '../e2e/support/chromium';
import { ensureChromium } from '../support/globalSetup';

// Where the browser tests look for Chromium, and what the global setup does when there is none.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-chromium-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('findChromium', () => {
  it('prefers KEEL_CHROMIUM, then the system names on PATH, then Playwright’s cache', () => {
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const env = { PATH: bin };
    // /usr/bin/chromium may exist on this machine: only a result outside it tells the search apart.
    const found = findChromium(env, home);
    if (found === null || !found.startsWith('/usr/')) expect(found).toBeNull();
    const cached = executable(join(home, '.cache', 'ms-playwright', 'chromium-1200', 'chrome-linux', 'chrome'));
    executable(join(home, '.cache', 'ms-playwright', 'chromium-1100', 'chrome-linux', 'chrome'));
    if (found === null) expect(findChromium(env, home)).toBe(cached);
    const onPath = executable(join(bin, 'chromium-browser'));
    expect(findChromium(env, home)).toBe(onPath);
    expect(findChromium({ ...env, KEEL_CHROMIUM: '/opt/chrome/chrome' }, home)).toBe('/opt/chrome/chrome');
  });
});

describe('the global setup', () => {
  it('installs Chromium where it can, and otherwise stops with one line saying how', () => {
    const said: string[] = [];
    let installed = false;
    const needs = { find: () => (installed ? '/usr/bin/chromium' : null), install: () => void (installed = true), say: (line: string) => said.push(line) };

    expect(ensureChromium({ ...needs, canInstall: () => true })).toBeNull();
    expect(installed).toBe(true);
    expect(said[0]).toContain('apt-get install chromium');

    installed = false;
    const line = ensureChromium({ ...needs, canInstall: () => false });
    expect(line).not.toBeNull();
    expect(line!.split('\n')).toHaveLength(1);
    expect(line).toContain('apt-get install chromium');
    expect(line).toContain('KEEL_CHROMIUM');

    const failed = ensureChromium({
      ...needs,
      canInstall: () => true,
      install: () => {
        throw new Error('E: Unable to locate package chromium\nmore');
      },
    });
    expect(failed).toMatch(/^apt-get install chromium failed \(E: Unable to locate package chromium\); /);
  });
});
