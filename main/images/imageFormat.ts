/**
 * The picture formats the Messages API takes, told apart by their first bytes (never by a name or
 * a claimed type), and their size read from the header, without decoding the pixels.
 */

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** The API refuses an image block whose bytes are over 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The API refuses images with an edge over 8000 px; it scales anything above 1568 px down itself. */
export const MAX_IMAGE_EDGE = 8000;

export const EXTENSION_OF: Record<ImageMediaType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The format the bytes are in, by their magic number; null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | null {
  const starts = (...values: number[]) => values.every((value, i) => bytes[i] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return null;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height from the header; null when the header is cut off or not understood. */
export function imageSize(bytes: Uint8Array, type: ImageMediaType): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (end: number) => end <= bytes.length;
  switch (type) {
    case 'image/png':
      return has(24) ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
    case 'image/gif':
      return has(10) ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : null;
    case 'image/webp':
      return webpSize(bytes, view);
    case 'image/jpeg':
      return jpegSize(bytes, view);
  }
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  if (bytes.length < 30) return null;
  const chunk = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (chunk === 'VP8X')
    return { width: 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16)), height: 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16)) };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return null;
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // Start of frame (baseline, progressive, …), not DHT (c4), JPG (c8) or DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

export interface CheckedImage {
  mediaType: ImageMediaType;
  size: ImageSize;
}

/**
 * Whether bytes can go to the model as they are: a known format whose magic bytes agree with the
 * claimed type (when one is claimed), within the API's byte and edge limits. The error names the
 * limit and what to do.
 */
export function checkImage(bytes: Uint8Array, claimed?: string, name = 'The image'): { ok: true; image: CheckedImage } | { ok: false; message: string } {
  const mediaType = sniffImage(bytes);
  if (!mediaType)
    return {
      ok: false,
      message: `${name} is not a PNG, JPEG, GIF or WebP picture (its first bytes say otherwise). Only those formats can be sent to the model.`,
    };
  if (claimed !== undefined && claimed !== mediaType) {
    return { ok: false, message: `${name} says it is ${claimed} but its bytes are ${mediaType}. Paste or attach the picture again.` };
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      message: `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; the model takes pictures of at most 5 MB. Make it smaller (scale it down or save it as JPEG) and try again.`,
    };
  }
  const size = imageSize(bytes, mediaType);
  if (!size) return { ok: false, message: `${name} looks like ${mediaType} but its header is cut off or damaged, so the model could not read it.` };
  if (size.width > MAX_IMAGE_EDGE || size.height > MAX_IMAGE_EDGE) {
    return {
      ok: false,
      message: `${name} is ${size.width}×${size.height} px; the model takes pictures of at most ${MAX_IMAGE_EDGE} px a side. Scale it down and try again.`,
    };
  }
  return { ok: true, image: { mediaType, size } };
}
