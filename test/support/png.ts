import { deflateSync } from 'node:zlib';

/**
 * A real PNG of the given size (8-bit RGB), made without an image library: a colour gradient, or
 * noise (which does not compress, for pictures over a byte limit).
 */
export function makePng(width: number, height: number, pattern: 'gradient' | 'noise' = 'gradient'): Buffer {
  const rows: Buffer[] = [];
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      if (pattern === 'noise') {
        for (let c = 0; c < 3; c++) {
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          row[1 + x * 3 + c] = seed >>> 24;
        }
      } else {
        row[1 + x * 3] = Math.floor((x / Math.max(1, width - 1)) * 255);
        row[2 + x * 3] = Math.floor((y / Math.max(1, height - 1)) * 255);
        row[3 + x * 3] = 160;
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Only the header of a PNG claiming a size (enough for a size check; not a picture that decodes). */
export function pngHeaderClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
