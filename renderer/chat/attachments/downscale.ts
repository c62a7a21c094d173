import type { ImageAttachment } from '../../../common/contract';

/** What the API takes without scaling on its side, and its byte limit per picture. */
export const MAX_EDGE = 1568;
export const MAX_BYTES = 5 * 1024 * 1024;
export const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
type AcceptedType = (typeof ACCEPTED_TYPES)[number];

export type ImageProblem = 'unsupported' | 'unreadable' | 'tooLarge';

export class ImagePrepareError extends Error {
  constructor(readonly problem: ImageProblem) {
    super(problem);
  }
}

export interface PreparedImage extends ImageAttachment {
  width: number;
  height: number;
}

/**
 * A pasted or dropped picture made ready to send: scaled so its long edge is at most 1568 px and
 * its bytes at most 5 MB (re-encoded as JPEG when a PNG stays too big), as base64. A picture within
 * both limits is sent as it is (an animated GIF stays animated).
 */
export async function prepareImage(file: Blob): Promise<PreparedImage> {
  if (!isAccepted(file.type)) throw new ImagePrepareError('unsupported');
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new ImagePrepareError('unreadable');
  }
  try {
    const { width, height } = bitmap;
    const scale = Math.min(1, MAX_EDGE / Math.max(width, height));
    if (scale === 1 && file.size <= MAX_BYTES) return { mediaType: file.type, data: await base64Of(file), width, height };
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const context = canvas.getContext('2d');
    if (!context) throw new ImagePrepareError('unreadable');
    context.drawImage(bitmap, 0, 0, w, h);
    // A GIF is drawn as its first frame; PNG keeps sharp text in screenshots.
    const preferred = file.type === 'image/gif' ? 'image/png' : file.type;
    for (const [type, quality] of [
      [preferred, 0.9],
      ['image/jpeg', 0.85],
      ['image/jpeg', 0.6],
    ] as const) {
      const blob = await canvasBlob(canvas, type, quality);
      if (blob && blob.size <= MAX_BYTES && isAccepted(blob.type)) return { mediaType: blob.type, data: await base64Of(blob), width: w, height: h };
    }
    throw new ImagePrepareError('tooLarge');
  } finally {
    bitmap.close();
  }
}

function isAccepted(type: string): type is AcceptedType {
  return (ACCEPTED_TYPES as readonly string[]).includes(type);
}

function canvasBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new ImagePrepareError('unreadable'));
    reader.readAsDataURL(blob);
  });
}
