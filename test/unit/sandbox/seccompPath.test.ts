import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seccompApplyPath } from '../../../main/sandbox/seccompPath';

const runtimeEntry = join('/opt', 'Keel', 'resources', 'app.asar', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'index.js');

describe("the sandbox's seccomp helper path", () => {
  it("names the unpacked copy when the runtime is read from a packaged app's asar", () => {
    expect(seccompApplyPath(runtimeEntry, 'x64')).toBe(
      join('/opt', 'Keel', 'resources', 'app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp', 'x64', 'apply-seccomp'),
    );
    expect(seccompApplyPath(runtimeEntry, 'arm64')).toContain(
      join('app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp', 'arm64'),
    );
  });

  it('leaves a folder merely named like an asar alone', () => {
    expect(seccompApplyPath(join('/home', 'me', 'my.asarx', 'sandbox-runtime', 'dist', 'index.js'), 'x64')).toBe(
      join('/home', 'me', 'my.asarx', 'sandbox-runtime', 'vendor', 'seccomp', 'x64', 'apply-seccomp'),
    );
  });

  it('finds the installed binary from source', () => {
    const path = seccompApplyPath(createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime'), 'x64');
    expect(path && existsSync(path)).toBe(true);
  });

  it('has none for an architecture the runtime ships no binary for', () => {
    expect(seccompApplyPath(runtimeEntry, 'ia32')).toBeUndefined();
  });
});
