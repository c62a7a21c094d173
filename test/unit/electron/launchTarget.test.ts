import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLaunchTarget, packagedExecutables } from '../../electron/launchTarget';

// Which app test/electron/launch.test.ts drives: the packaged test build first.
const root = '/repo';
const noElectron = { binary: null, reason: 'no Electron binary at /repo/node_modules/electron/dist/electron' };
const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('the launch test target', () => {
  it('is the packaged test build where one exists, even when the dev Electron is there too', () => {
    const executable = join(root, 'dist', 'linux-unpacked', 'keel');
    expect(chooseLaunchTarget({ root, platform: 'linux', exists: existing(executable), electron: { binary: '/e/electron', reason: '' } })).toEqual({
      kind: 'packaged',
      executable,
      args: [],
    });
    const mac = join(root, 'dist', 'mac-arm64', 'Keel.app', 'Contents', 'MacOS', 'Keel');
    expect(chooseLaunchTarget({ root, platform: 'darwin', exists: existing(mac), electron: noElectron })).toMatchObject({ kind: 'packaged', executable: mac });
    const win = join(root, 'dist', 'win-unpacked', 'Keel.exe');
    expect(chooseLaunchTarget({ root, platform: 'win32', exists: existing(win), electron: noElectron })).toMatchObject({ kind: 'packaged', executable: win });
  });

  it('is the dev build (Electron with out/main/index.js) when there is no package', () => {
    expect(chooseLaunchTarget({ root, platform: 'linux', exists: existing(), electron: { binary: '/e/electron', reason: '' } })).toEqual({
      kind: 'dev',
      executable: '/e/electron',
      args: [join(root, 'out', 'main', 'index.js')],
    });
  });

  it('is nothing, saying both what it looked for and why Electron is missing', () => {
    const target = chooseLaunchTarget({ root, platform: 'linux', exists: existing(), electron: noElectron });
    expect(target.kind).toBe('none');
    if (target.kind !== 'none') return;
    expect(target.reason).toContain(join(root, 'dist', 'linux-unpacked', 'keel'));
    expect(target.reason).toContain('KEEL_TEST_BUILD=1 npm run dist -- --dir');
    expect(target.reason).toContain(noElectron.reason);
  });

  it('takes KEEL_ELECTRON_APP first, and says so when it names nothing', () => {
    expect(chooseLaunchTarget({ root, platform: 'linux', exists: existing('/opt/keel/keel'), override: '/opt/keel/keel', electron: noElectron })).toMatchObject(
      { kind: 'packaged', executable: '/opt/keel/keel' },
    );
    expect(
      chooseLaunchTarget({ root, platform: 'linux', exists: existing(), override: '/opt/none', electron: { binary: '/e/electron', reason: '' } }),
    ).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('/opt/none'),
    });
    expect(packagedExecutables(root, 'freebsd')).toEqual([]);
  });
});
