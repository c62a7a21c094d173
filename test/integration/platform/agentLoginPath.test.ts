import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandEnvironment, loginShellPath, mergePath } from '../../../main/platform/loginEnvironment';
import { fallbackLocale } from '../../../main/platform/locale';
import { bashTool } from '../../../main/tools/bash/bashTool';
import { terminalEnvironment } from '../../../main/terminal/terminalEnv';
import { makeContext } from '../../unit/tools/bash/support';
import { BASH } from '../terminal/support';

const home = realpathSync(mkdtempSync(join(tmpdir(), 'keel-agent-login-')));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the login PATH reaches the agent’s commands (15.3)', () => {
  it('one resolution serves the bash tool: a tool found only on the login PATH runs', { timeout: 30_000 }, async () => {
    // What Homebrew or nvm would add in ~/.zprofile, and a program only there.
    const bin = join(home, 'login-only-bin');
    writeFileSync(join(home, '.bash_profile'), `export PATH="${bin}:$PATH"\n`);
    writeFileSync(join(home, '.bashrc'), '');
    mkdirSync(bin);
    writeFileSync(join(bin, 'keel-login-only-tool'), '#!/bin/sh\necho login-tool-ran\n');
    chmodSync(join(bin, 'keel-login-only-tool'), 0o755);
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      // As the core does at startup (a Dock start is 'auto' and true there; here it is forced).
      const resolved = await loginShellPath({ mode: 'always', shell: BASH });
      expect(resolved?.split(':')[0]).toBe(bin);
    } finally {
      process.env.HOME = saved;
    }
    const result = await bashTool.run({ command: 'keel-login-only-tool; echo "lang=${LANG:-unset}"' }, makeContext(home));
    expect(result.content).toContain('login-tool-ran');
    expect(result.content).not.toContain('unset');
  });
});

describe('the command environment', () => {
  it('puts the login PATH first and keeps what Keel had', () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin:/keel/own', ':')).toBe('/opt/homebrew/bin:/usr/bin:/bin:/keel/own');
    expect(mergePath(undefined, '/usr/bin', ':')).toBe('/usr/bin');
  });

  it('gives a UTF-8 LANG when none is set: en_US.UTF-8 on macOS, C.UTF-8 on Linux, none on Windows', () => {
    expect(commandEnvironment({ PATH: '/usr/bin:/bin' }, '/opt/homebrew/bin:/usr/bin', 'darwin')).toEqual({
      PATH: '/opt/homebrew/bin:/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
    });
    expect(commandEnvironment({ PATH: '/usr/bin' }, undefined, 'linux')).toEqual({ LANG: 'C.UTF-8' });
    expect(commandEnvironment({ LC_ALL: 'zh_CN.UTF-8' }, undefined, 'linux')).toEqual({});
    expect(commandEnvironment({ Path: 'C:\\Windows' }, undefined, 'win32')).toEqual({});
    expect(fallbackLocale({ LANG: 'de_DE.UTF-8' }, 'darwin')).toBeUndefined();
  });

  it('terminals use the same locale rule', () => {
    expect(terminalEnvironment({}, { marker: 'm', platform: 'darwin' }).LANG).toBe('en_US.UTF-8');
    expect(terminalEnvironment({}, { marker: 'm', platform: 'linux' }).LANG).toBe('C.UTF-8');
  });
});
