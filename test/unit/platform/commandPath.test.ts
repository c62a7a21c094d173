import { describe, expect, it } from 'vitest';
import { commandEnvironment, preferOwnPath } from '../../../main/platform/loginEnvironment';

describe("the agent's command PATH", () => {
  const login = '/opt/homebrew/bin:/usr/bin:/bin';

  it('puts the login shell first in the desktop app, where Keel was given the bare system PATH', () => {
    const env = commandEnvironment({ PATH: '/usr/bin:/bin:/usr/sbin:/sbin' }, login, 'darwin');
    expect(env.PATH).toBe('/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin:/sbin');
  });

  it('keeps the PATH keel run/web were started with first (an activated venv wins), adding what only the login shell has', () => {
    preferOwnPath();
    const env = commandEnvironment({ PATH: '/work/.venv/bin:/usr/bin' }, login, 'linux');
    expect(env.PATH).toBe('/work/.venv/bin:/usr/bin:/opt/homebrew/bin:/bin');
  });
});
