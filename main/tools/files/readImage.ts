import { open } from 'node:fs/promises';
import type { ToolResult } from '../types';
import { checkImage, imageSize, sniffImage } from '../../images/imageFormat';
import { failure } from './errors';
import { formatSize } from './text';

const KINDS = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' } as const;

/**
 * A picture read for the model: null when the file is not a PNG, JPEG, GIF or WebP (by its first
 * bytes), else the picture as an image block, or a refusal that names the API's limit. Pictures are
 * not scaled here (that would need a native image library); the API scales anything over 1568 px
 * down itself, and refuses over 5 MB or 8000 px, which is said before sending.
 */
export async function readImageFile(absolute: string, shown: string, size: number): Promise<ToolResult | null> {
  const file = await open(absolute, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const mediaType = sniffImage(head.subarray(0, bytesRead));
    if (!mediaType) return null;
    const name = `"${shown}" (a ${KINDS[mediaType]} picture)`;
    if (size > 5 * 1024 * 1024) {
      return failure(
        `${name} is ${formatSize(size)}; the model takes pictures of at most 5 MB, and Keel does not scale pictures read from disk. Make a smaller copy (for example with a command-line image tool) and read that.`,
      );
    }
    const bytes = await file.readFile();
    // A header cut short is no picture the model could see: it is refused as binary, like any other.
    if (!imageSize(bytes, mediaType)) return null;
    const checked = checkImage(bytes, mediaType, name);
    if (!checked.ok) return failure(`${checked.message} Keel does not scale pictures read from disk: make a smaller copy and read that.`);
    const { width, height } = checked.image.size;
    return {
      isError: false,
      content: `"${shown}" is a ${KINDS[mediaType]} picture (${width}×${height} px, ${formatSize(bytes.length)}); it follows as an image.`,
      images: [{ mediaType, data: bytes.toString('base64') }],
    };
  } finally {
    await file.close();
  }
}
