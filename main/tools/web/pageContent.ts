/** How a response body is given to the model. */
export type BodyKind = 'html' | 'text' | 'binary';

const TEXT_TYPES =
  /^(text\/.+|application\/(json|ld\+json|xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-sh|x-httpd-php|graphql|sql|rss\+xml|atom\+xml)|application\/.+\+(json|xml))$/;

/** The media type and charset of a Content-Type header, lower case. */
export function parseContentType(header: string | undefined): { mime: string; charset: string | undefined } {
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params.map((p) => p.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1]).find((c) => c !== undefined);
  return { mime: type.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

function looksBinary(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  // Text in an encoding without a charset still has few control characters besides tab and newlines.
  let control = 0;
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) control++;
  return head.length > 0 && control / head.length > 0.1;
}

function looksHtml(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /^<(head|body|meta|title)\b/.test(head);
}

/**
 * What to do with a body: HTML becomes Markdown, text and JSON are given as they are, anything
 * else is refused. A missing or generic type is judged by the bytes.
 */
export function bodyKind(mime: string, bytes: Buffer): BodyKind {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return looksBinary(bytes) ? 'binary' : 'html';
  if (TEXT_TYPES.test(mime)) return looksBinary(bytes) ? 'binary' : 'text';
  if (mime === '' || mime === 'application/octet-stream' || mime === 'binary/octet-stream') {
    if (looksBinary(bytes)) return 'binary';
    if (looksHtml(bytes)) return 'html';
    return isUtf8(bytes) ? 'text' : 'binary';
  }
  return 'binary';
}

function isUtf8(bytes: Buffer): boolean {
  try {
    // Streaming: a character cut at the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65536), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The body as text: the header's charset, else a <meta charset> for HTML, else UTF-8 (BOMs win). */
export function decodeBody(bytes: Buffer, charset: string | undefined, kind: BodyKind): string {
  let label = charset;
  if (label === undefined && kind === 'html') {
    const head = bytes.subarray(0, 2048).toString('latin1');
    label = head.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1]?.toLowerCase();
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
