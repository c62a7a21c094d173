#!/usr/bin/env node
// Renders build/icon.svg to the icon files electron-builder reads (all committed; run this again
// only after changing the SVG):
//   build/icon.png            512×512 (the generic icon)
//   build/icons/NxN.png       16…1024, the Linux icon set (AppImage, deb)
//   build/icon.icns           macOS (PNG entries, packed here: no iconutil off a Mac)
//   build/icon.ico            Windows (BMP entries up to 128, PNG at 256, as NSIS expects)
// Needs rsvg-convert (Debian: librsvg2-bin) and ImageMagick's convert (Debian: imagemagick).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const buildDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');
const svg = join(buildDir, 'icon.svg');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS element types holding PNG data, with their pixel size (what iconutil writes). */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic07', 128],
  ['ic13', 256], // 128@2x
  ['ic08', 256],
  ['ic14', 512], // 256@2x
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
];

/** Packs PNG images into an ICNS container: 'icns', total length, then (type, length, data) elements. */
export function packIcns(entries) {
  const parts = entries.map(([type, png]) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

function render(size, out) {
  execFileSync('rsvg-convert', ['--width', String(size), '--height', String(size), '--output', out, svg]);
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'keel-icons-'));
  try {
    const png = (size) => join(work, `${size}.png`);
    const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, size]) => size)])];
    for (const size of sizes) render(size, png(size));

    mkdirSync(join(buildDir, 'icons'), { recursive: true });
    for (const size of LINUX_SIZES) writeFileSync(join(buildDir, 'icons', `${size}x${size}.png`), readFileSync(png(size)));
    writeFileSync(join(buildDir, 'icon.png'), readFileSync(png(512)));

    writeFileSync(join(buildDir, 'icon.icns'), packIcns(ICNS_TYPES.map(([type, size]) => [type, readFileSync(png(size))])));

    // ImageMagick stores entries under 256 as 32-bit BMP and the 256 one as PNG.
    execFileSync('convert', [...ICO_SIZES.map(png), join(buildDir, 'icon.ico')]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`icons written to ${buildDir}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
