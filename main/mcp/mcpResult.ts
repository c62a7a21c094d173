import type { ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { checkImage } from '../images/imageFormat';
import type { ToolResult } from '../tools/types';

/** Like read_file's cap: a server's text beyond this is cut, and the model is told. */
export const MCP_MAX_TEXT_BYTES = 100 * 1024;
/** The Messages API refuses a base64 image over 5 MB. */
export const MCP_MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Block = TextBlockParam | ImageBlockParam;

/**
 * An MCP tool's answer as the model gets it, faithfully: text as text, images as image blocks,
 * embedded resources as their text (binary ones named), links named, `isError` kept. Text is
 * capped at MCP_MAX_TEXT_BYTES in total, like Keel's own tools.
 */
export function toToolResult(result: CallToolResult, label: string): ToolResult {
  const blocks: Block[] = [];
  let budget = MCP_MAX_TEXT_BYTES;
  let cut = false;
  const addText = (text: string) => {
    if (cut) return;
    const bytes = Buffer.byteLength(text);
    if (bytes > budget) {
      text = cutToBytes(text, budget);
      cut = true;
    }
    budget -= Buffer.byteLength(text);
    if (text !== '') blocks.push({ type: 'text', text });
  };
  const addImage = (data: string, mimeType: string, what: string) => {
    if (!IMAGE_TYPES.has(mimeType)) return addText(`[${what}: ${mimeType}, not shown: the model accepts PNG, JPEG, GIF and WebP images]`);
    if (data.length > MCP_MAX_IMAGE_BASE64)
      return addText(`[${what}: ${mimeType}, ${formatBytes(data.length * 0.75)}, not shown: over the model's 5 MB image limit]`);
    // Checked as read_file checks a picture: one the API would refuse would fail every later
    // request of the session, and one that passes is what the transcript keeps as a blob.
    const bytes = Buffer.from(data, 'base64');
    const checked = checkImage(bytes, undefined, `The ${what}`);
    if (!checked.ok) return addText(`[${what}: ${mimeType}, not shown: ${checked.message}]`);
    // The bytes' own type: a server that mislabels a JPEG as PNG still gets its picture seen.
    const image: ImageBlockParam = { type: 'image', source: { type: 'base64', media_type: checked.image.mediaType, data: bytes.toString('base64') } };
    blocks.push(image);
  };

  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        addText(item.text);
        break;
      case 'image':
        addImage(item.data, item.mimeType, 'image');
        break;
      case 'audio':
        addText(`[audio: ${item.mimeType}, ${formatBytes(item.data.length * 0.75)}, not shown: the model does not take audio]`);
        break;
      case 'resource_link':
        addText(`[resource link: ${item.name} <${item.uri}>${item.mimeType ? ` (${item.mimeType})` : ''}${item.description ? ` — ${item.description}` : ''}]`);
        break;
      case 'resource': {
        const resource = item.resource;
        const mime = resource.mimeType ?? 'unknown type';
        if ('text' in resource && typeof resource.text === 'string') addText(`[resource <${resource.uri}> (${mime})]\n${resource.text}`);
        else if ('blob' in resource && typeof resource.blob === 'string' && IMAGE_TYPES.has(mime)) addImage(resource.blob, mime, `resource <${resource.uri}>`);
        else addText(`[binary resource <${resource.uri}> (${mime}), not shown]`);
        break;
      }
      default:
        addText(`[content of type "${(item as { type: string }).type}", not shown]`);
    }
  }
  // A server that answers only with structured content still says something.
  if (blocks.length === 0 && result.structuredContent !== undefined) addText(JSON.stringify(result.structuredContent, null, 2));
  if (cut) {
    const note = `[${label}: the output was cut at about ${formatBytes(MCP_MAX_TEXT_BYTES)}; ask the tool for less (a filter, a page, a smaller range)]`;
    blocks.push({ type: 'text', text: note });
  }
  const isError = result.isError === true;
  if (blocks.length === 0) return { content: isError ? `${label} failed and said nothing more.` : '(no output)', isError };
  const content = mcpShownText(blocks);
  return blocks.every((b) => b.type === 'text') ? { content, isError } : { content, isError, blocks };
}

/**
 * The chat's text of an MCP answer: its text blocks, and a marker where a picture was (the card
 * shows the picture itself). Made from the blocks alone, so the chat rebuilt from a transcript
 * (pictures stored as blob names, or as base64 by older Keels) reads as it did live.
 */
export function mcpShownText(blocks: readonly unknown[]): string {
  return blocks
    .map((block) => {
      const b = block as { type?: unknown; text?: unknown; source?: { media_type?: unknown } } | null;
      if (b?.type === 'text' && typeof b.text === 'string') return b.text;
      if (b?.type === 'image') return imageMarker(String(b.source?.media_type ?? 'image'));
      return '';
    })
    .join('\n');
}

function imageMarker(mediaType: string): string {
  return `[image: ${mediaType}]`;
}

function cutToBytes(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
  let end = bytes;
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
