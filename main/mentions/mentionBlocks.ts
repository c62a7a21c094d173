import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { readFileTool } from '../tools/files/readFile';

/**
 * The contents of the files a person @-mentioned, as the model gets them with the message: a
 * synthetic `read_file` of each (so the same confinement, decoding, caps — 2,000 lines and about
 * 100 KB — and picture handling apply), wrapped in a text block that names the path. A path that
 * cannot be read is said so, and the message still goes.
 */
export async function mentionBlocks(
  workspace: string,
  paths: readonly string[],
  signal: AbortSignal = new AbortController().signal,
): Promise<ContentBlockParam[]> {
  const blocks: ContentBlockParam[] = [];
  for (const path of [...new Set(paths)]) {
    const result = await readFileTool.run({ path }, { workspace, signal });
    if (result.isError) {
      blocks.push({
        type: 'text',
        text: `<mentioned-file path="${path}" error="true">\nThe person mentioned @${path}, but it could not be read: ${result.content}\n</mentioned-file>`,
      });
      continue;
    }
    blocks.push({
      type: 'text',
      text: `<mentioned-file path="${path}">\nThe person mentioned @${path}; here it is as read_file shows it:\n${result.content}\n</mentioned-file>`,
    });
    for (const image of result.images ?? []) blocks.push({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } });
  }
  return blocks;
}
