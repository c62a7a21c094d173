import { describe, expect, it } from 'vitest';
import { checkImage, imageSize, sniffImage } from '../../../main/images/imageFormat';
import { makePng, pngHeaderClaiming } from '../../support/png';

// Pictures are told apart by their bytes and measured from their headers, never decoded.

const gif = (width: number, height: number) => {
  const bytes = Buffer.alloc(20);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
};

const jpeg = (width: number, height: number) =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    // An APP0 (JFIF) segment first, as cameras and browsers write, then the baseline frame header.
    Buffer.from([0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.alloc(9),
    Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03]),
    Buffer.alloc(12),
  ]);

const webp = (chunk: 'VP8X' | 'VP8L', width: number, height: number) => {
  const bytes = Buffer.alloc(40);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(32, 4);
  bytes.write('WEBP', 8, 'latin1');
  bytes.write(chunk, 12, 'latin1');
  if (chunk === 'VP8X') {
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
  } else {
    bytes[20] = 0x2f;
    bytes.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  }
  return bytes;
};

describe('sniffImage and imageSize', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes and reads their size', () => {
    const cases = [
      [makePng(31, 17), 'image/png', { width: 31, height: 17 }],
      [jpeg(1920, 1080), 'image/jpeg', { width: 1920, height: 1080 }],
      [gif(320, 200), 'image/gif', { width: 320, height: 200 }],
      [webp('VP8X', 4000, 3000), 'image/webp', { width: 4000, height: 3000 }],
      [webp('VP8L', 640, 480), 'image/webp', { width: 640, height: 480 }],
    ] as const;
    for (const [bytes, type, size] of cases) {
      expect(sniffImage(bytes)).toBe(type);
      expect(imageSize(bytes, type)).toEqual(size);
    }
  });

  it('does not take text, a PDF or a named-but-not picture for a picture', () => {
    expect(sniffImage(Buffer.from('hello, this is text'))).toBeNull();
    expect(sniffImage(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
});

describe('checkImage', () => {
  it('accepts a picture within the limits', () => {
    expect(checkImage(makePng(10, 10), 'image/png')).toMatchObject({ ok: true, image: { mediaType: 'image/png', size: { width: 10, height: 10 } } });
  });

  it('refuses a claimed type the bytes contradict, a cut header, and pictures over 8000 px or 5 MB, naming the limit', () => {
    expect(checkImage(makePng(10, 10), 'image/jpeg')).toMatchObject({
      ok: false,
      message: expect.stringContaining('says it is image/jpeg but its bytes are image/png'),
    });
    expect(checkImage(makePng(10, 10).subarray(0, 12))).toMatchObject({ ok: false, message: expect.stringContaining('cut off or damaged') });
    expect(checkImage(pngHeaderClaiming(8001, 10))).toMatchObject({ ok: false, message: expect.stringContaining('at most 8000 px') });
    const big = Buffer.concat([pngHeaderClaiming(100, 100), Buffer.alloc(5 * 1024 * 1024)]);
    expect(checkImage(big)).toMatchObject({ ok: false, message: expect.stringContaining('at most 5 MB') });
  });
});
