import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FuseV1Options } from '@electron/fuses';
import type { Configuration, FuseOptionsV1 } from 'app-builder-lib';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { beforeAll, describe, expect, it } from 'vitest';

import { beforePack, fusesForBuild, isTestBuild, TEST_BUILD_OVERRIDES } from '../../../build/hooks/beforePack.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let production: FuseOptionsV1;

beforeAll(async () => {
  const log = console.log;
  console.log = () => {};
  try {
    const config: Configuration = await getConfig(root, join(root, 'electron-builder.yml'), null);
    production = config.electronFuses as FuseOptionsV1;
  } finally {
    console.log = log;
  }
});

// The Electron security checklist's fuses (electronjs.org/docs/latest/tutorial/fuses).
const CHECKLIST = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  loadBrowserProcessSpecificV8Snapshot: false,
  grantFileProtocolExtraPrivileges: false,
};

describe('the production fuses', () => {
  it('are set as the security checklist advises', () => {
    expect(production).toEqual(CHECKLIST);
  });

  it('leave none of the fuses @electron/fuses knows to the binary default', () => {
    const known = Object.keys(FuseV1Options).filter((key) => Number.isNaN(Number(key)));
    const camel = (name: string): string => name[0]!.toLowerCase() + name.slice(1);
    expect(known.map(camel).sort()).toEqual(Object.keys(production).sort());
  });

  it('are what a build without KEEL_TEST_BUILD gets', () => {
    for (const env of [{}, { KEEL_TEST_BUILD: '' }, { KEEL_TEST_BUILD: '0' }, { KEEL_TEST_BUILD: 'false' }]) {
      expect(isTestBuild(env)).toBe(false);
      expect(fusesForBuild(production, env)).toEqual(CHECKLIST);
    }
  });
});

describe('the test build (KEEL_TEST_BUILD=1)', () => {
  it("keeps EnableNodeCliInspectArguments on, for Playwright's --inspect, and changes nothing else", () => {
    for (const env of [{ KEEL_TEST_BUILD: '1' }, { KEEL_TEST_BUILD: 'true' }]) {
      expect(isTestBuild(env)).toBe(true);
      const fuses = fusesForBuild(production, env);
      expect(fuses.enableNodeCliInspectArguments).toBe(true);
      expect(fuses.runAsNode).toBe(false);
      expect(fuses.enableNodeOptionsEnvironmentVariable).toBe(false);
      expect(fuses).toEqual({ ...CHECKLIST, enableNodeCliInspectArguments: true });
    }
    expect(TEST_BUILD_OVERRIDES).toEqual({ enableNodeCliInspectArguments: true });
  });

  it('does not change the production fuses it is derived from', () => {
    const before = { ...production };
    fusesForBuild(production, { KEEL_TEST_BUILD: '1' });
    expect(production).toEqual(before);
  });

  it('rejects a KEEL_TEST_BUILD that is neither on nor off', () => {
    expect(() => isTestBuild({ KEEL_TEST_BUILD: 'yes please' })).toThrow(/KEEL_TEST_BUILD must be 1/);
  });

  it('fails when the production fuses are missing', () => {
    expect(() => fusesForBuild(undefined, {})).toThrow(/no electronFuses/);
  });
});

describe('the beforePack hook', () => {
  const run = async (value: string | undefined) => {
    const saved = process.env.KEEL_TEST_BUILD;
    const log = console.log;
    console.log = () => {};
    if (value === undefined) delete process.env.KEEL_TEST_BUILD;
    else process.env.KEEL_TEST_BUILD = value;
    try {
      const config = { electronFuses: { ...production } };
      await beforePack({ packager: { config } });
      return config.electronFuses;
    } finally {
      console.log = log;
      if (saved === undefined) delete process.env.KEEL_TEST_BUILD;
      else process.env.KEEL_TEST_BUILD = saved;
    }
  };

  it('leaves the production fuses for electron-builder to flip', async () => {
    expect(await run(undefined)).toEqual(CHECKLIST);
  });

  it('switches to the test fuses under KEEL_TEST_BUILD=1', async () => {
    expect(await run('1')).toEqual({ ...CHECKLIST, enableNodeCliInspectArguments: true });
  });
});
