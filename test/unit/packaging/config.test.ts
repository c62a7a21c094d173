import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { resolveFunction } from 'app-builder-lib/out/util/resolve.js';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

// electron-builder.yml, loaded and validated the way electron-builder itself does it: its config
// loader (which parses the YAML and follows `extends`) and its own JSON schema (scheme.json).

const root = fileURLToPath(new URL('../../..', import.meta.url));
let config: Configuration;

async function load(): Promise<Configuration> {
  const log = console.log;
  console.log = () => {};
  try {
    // Third argument: the CLI's -c overrides, none here.
    return await getConfig(root, join(root, 'electron-builder.yml'), null);
  } finally {
    console.log = log;
  }
}

beforeAll(async () => {
  config = await load();
});

const targets = (platform: unknown): unknown[] => {
  const target = (platform as { target?: unknown } | null)?.target;
  return (Array.isArray(target) ? target : [target]).map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
};

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is really checked against that schema (an unknown key or a wrong type fails)', async () => {
    await expect(validateConfiguration({ ...config, productNme: 'Keel' } as Configuration, new DebugLogger(false))).rejects.toThrow(
      /unknown property 'productNme'/,
    );
    const badFuses = { ...config, electronFuses: { ...config.electronFuses, runAsNodes: false } } as Configuration;
    await expect(validateConfiguration(badFuses, new DebugLogger(false))).rejects.toThrow(/configuration.electronFuses/);
  });

  it('names the app', () => {
    expect(config.appId).toBe('dev.keel.workbench');
    expect(config.productName).toBe('Keel');
  });

  it('builds AppImage and deb for Linux, dmg for macOS and nsis for Windows', () => {
    expect(targets(config.linux)).toEqual(['AppImage', 'deb']);
    expect(targets(config.mac)).toEqual(['dmg']);
    expect(targets(config.win)).toEqual(['nsis']);
  });

  it('packs only the built app and package.json: no sources, no tests, no source maps', () => {
    expect(config.files).toEqual([{ filter: ['out/**', 'package.json', '!**/*.map'] }]);
    expect(config.asar).not.toBe(false);
  });

  it("unpacks node-pty and the sandbox's seccomp helper from the asar, and does not rebuild node-pty against Electron", () => {
    expect(config.asarUnpack).toEqual(['node_modules/node-pty/**', 'node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/**']);
    expect(config.npmRebuild).toBe(false);
    expect(config.buildDependenciesFromSource ?? false).toBe(false);
    expect(config.nodeGypRebuild ?? false).toBe(false);
  });

  it("makes the deb depend on what the sandbox needs, besides electron-builder's own defaults", async () => {
    const { default: FpmTarget } = (await import('app-builder-lib/out/targets/FpmTarget.js')) as unknown as {
      default: { prototype: { getDefaultDepends(target: string): string[] } };
    };
    const defaults = FpmTarget.prototype.getDefaultDepends.call(null, 'deb');
    expect(defaults.length).toBeGreaterThan(0);
    expect(config.deb?.depends).toEqual([...defaults, 'bubblewrap', 'socat', 'ripgrep']);
  });

  it('has the deb metadata electron-builder refuses to build without', () => {
    expect(config.linux?.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect((config.extraMetadata as { homepage?: string } | undefined)?.homepage).toMatch(/^https:\/\//);
  });

  it('never publishes', () => {
    expect(config.publish).toBeNull();
  });

  it('has hooks electron-builder can load, each exporting the function it looks for', async () => {
    expect(process.cwd()).toBe(root.replace(/\/$/, '')); // electron-builder resolves ./ hooks against the cwd
    for (const name of ['beforePack', 'afterPack'] as const) {
      const path = config[name];
      expect(typeof path).toBe('string');
      expect(existsSync(join(root, path as string))).toBe(true);
      const hook: unknown = await resolveFunction(undefined, path, name, root);
      expect(typeof hook, name).toBe('function');
      expect((hook as { name: string }).name).toBe(name);
    }
  });
});

describe('the icons', () => {
  const png = (path: string): { width: number; height: number } => {
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), path).toBe(true);
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  };
  const fromBuild = (path: string): string => join(root, config.directories?.buildResources ?? 'build', path);

  it('has a 512×512 PNG and the Linux set named by size, from the SVG', () => {
    expect(existsSync(join(root, 'build', 'icon.svg'))).toBe(true);
    expect(png(fromBuild('icon.png'))).toEqual({ width: 512, height: 512 });
    expect(config.linux?.icon).toBe('build/icons');
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      expect(png(join(root, 'build', 'icons', `${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
  });

  it('has an ICNS for macOS whose PNG entries are the sizes their types promise', () => {
    expect(config.mac?.icon).toBe('build/icon.icns');
    const bytes = readFileSync(join(root, 'build', 'icon.icns'));
    expect(bytes.toString('latin1', 0, 4)).toBe('icns');
    expect(bytes.readUInt32BE(4)).toBe(bytes.length);
    const sizes: Record<string, number> = { icp4: 16, icp5: 32, ic11: 32, ic12: 64, ic07: 128, ic13: 256, ic08: 256, ic14: 512, ic09: 512, ic10: 1024 };
    const found: string[] = [];
    for (let at = 8; at < bytes.length;) {
      const type = bytes.toString('latin1', at, at + 4);
      const length = bytes.readUInt32BE(at + 4);
      const data = bytes.subarray(at + 8, at + length);
      expect(data.readUInt32BE(16), type).toBe(sizes[type]);
      found.push(type);
      at += length;
    }
    expect(found.sort()).toEqual(Object.keys(sizes).sort());
  });

  it('has an ICO for Windows from 16 to 256 pixels', () => {
    expect(config.win?.icon).toBe('build/icon.ico');
    const bytes = readFileSync(join(root, 'build', 'icon.ico'));
    expect(bytes.readUInt16LE(0)).toBe(0);
    expect(bytes.readUInt16LE(2)).toBe(1);
    const count = bytes.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16;
      const width = bytes[entry] || 256;
      const length = bytes.readUInt32LE(entry + 8);
      const offset = bytes.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(bytes.length);
      sizes.push(width);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    main: string;
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('builds the app then packages it for the current OS with `npm run dist`', () => {
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder');
  });

  it('pins the packaging tools', () => {
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies['@electron/fuses']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('starts the app from a file that is packed', () => {
    expect(pkg.main.startsWith('out/')).toBe(true);
  });
});
