import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxSetting } from '../../../main/sandbox/sandboxSetting';
import { isSecretPath, secretPaths } from '../../../main/sandbox/secretPaths';
import { placeholderCandidates, removePlaceholders } from '../../../main/sandbox/placeholders';
import { sandboxPolicy } from '../../../main/sandbox/sandboxPolicy';

describe('the sandbox setting', () => {
  it('is auto by default, the file can change it, and KEEL_SANDBOX wins', () => {
    expect(resolveSandboxSetting(undefined, {})).toBe('auto');
    expect(resolveSandboxSetting('off', {})).toBe('off');
    expect(resolveSandboxSetting('off', { KEEL_SANDBOX: 'Required' })).toBe('required');
  });

  it('refuses a value it does not know instead of guessing', () => {
    expect(() => resolveSandboxSetting(undefined, { KEEL_SANDBOX: 'yes' })).toThrow(/auto, off or required/);
  });
});

describe('secrets', () => {
  const secrets = secretPaths({ home: '/home/ada', dataDir: '/home/ada/.keel' });

  it('covers keys, cloud and registry credentials and Keel’s own data folder', () => {
    for (const file of [
      '/home/ada/.ssh/id_ed25519',
      '/home/ada/.aws/credentials',
      '/home/ada/.npmrc',
      '/home/ada/.config/gh/hosts.yml',
      '/home/ada/.keel/settings.json',
    ]) {
      expect(isSecretPath(file, secrets), file).toBe(true);
    }
  });

  it('leaves the rest of home readable', () => {
    expect(isSecretPath('/home/ada/project/src/a.ts', secrets)).toBe(false);
    expect(isSecretPath('/home/ada/.sshd-notes', secrets)).toBe(false);
  });

  it('is the same list the sandbox denies reading', () => {
    const policy = sandboxPolicy({ workspace: '/w', writable: ['/t'], secrets, allowedHosts: ['registry.npmjs.org'] });
    expect(policy.filesystem.denyRead).toEqual(secrets);
    expect(policy.filesystem.allowWrite).toEqual(['/w', '/t']);
    expect(policy.network).toMatchObject({ allowedDomains: ['registry.npmjs.org'], strictAllowlist: true });
  });
});

describe('placeholders', () => {
  it('removes only the empty protected files that were absent before, never a real one', () => {
    const ws = mkdtempSync(join(tmpdir(), 'keel-placeholders-'));
    try {
      writeFileSync(join(ws, '.profile'), 'mine');
      const candidates = placeholderCandidates(ws);
      expect(candidates).not.toContain(join(ws, '.profile'));
      writeFileSync(join(ws, '.bashrc'), '');
      writeFileSync(join(ws, '.zshrc'), 'written by someone');
      mkdirSync(join(ws, '.vscode'));
      removePlaceholders(candidates);
      expect(existsSync(join(ws, '.bashrc'))).toBe(false);
      expect(existsSync(join(ws, '.vscode'))).toBe(false);
      expect(existsSync(join(ws, '.zshrc'))).toBe(true);
      expect(existsSync(join(ws, '.profile'))).toBe(true);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
