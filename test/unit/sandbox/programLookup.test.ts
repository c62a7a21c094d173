import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { findProgram } from '../../../main/platform/findOnPath';
import { offerProgramLookup } from '../../../main/sandbox/programLookup';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  delete (globalThis as { Bun?: unknown }).Bun;
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'keel-which-'));
  folders.push(made);
  return made;
}

test('finds a program where `which` does, and an absolute path only when it can be run', () => {
  expect(findProgram('bash', process.env.PATH)).toBe(execFileSync('which', ['bash'], { encoding: 'utf8' }).trim());
  expect(findProgram('/bin/sh', process.env.PATH)).toBe('/bin/sh');
  const bin = folder();
  writeFileSync(join(bin, 'notes'), 'not a program\n');
  expect(findProgram(join(bin, 'notes'), undefined)).toBeNull();
  expect(findProgram('keel-no-such-program', process.env.PATH)).toBeNull();
  // A folder is not a program, and a relative PATH entry is never searched.
  expect(findProgram(bin, undefined)).toBeNull();
  expect(findProgram('notes', `.:${bin}`)).toBeNull();
});

test("the runtime's lookup answers from PATH, and finds a program installed after a miss", () => {
  const bin = folder();
  offerProgramLookup({ PATH: bin });
  const which = (globalThis as unknown as { Bun: { which(name: string): string | null } }).Bun.which;
  expect(which('keel-tool')).toBeNull();
  writeFileSync(join(bin, 'keel-tool'), '#!/bin/sh\n');
  chmodSync(join(bin, 'keel-tool'), 0o755);
  expect(which('keel-tool')).toBe(join(bin, 'keel-tool'));
});

test('a Bun global that is already there is left as it is', () => {
  const own = { which: () => '/own' };
  (globalThis as { Bun?: unknown }).Bun = own;
  offerProgramLookup({ PATH: '/usr/bin' });
  expect((globalThis as { Bun?: unknown }).Bun).toBe(own);
});
