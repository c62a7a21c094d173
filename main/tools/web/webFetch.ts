import { z } from 'zod';
import type { Tool, ToolResult } from '../types';
import { formatSize } from '../files/text';
import { READ_MAX_OUTPUT_BYTES } from '../files/readFile';
import { FETCH_TIMEOUT_MS, fetchPage, MAX_BODY_BYTES, type FetchedPage } from './fetchPage';
import { bodyKind, decodeBody, parseContentType } from './pageContent';

const inputSchema = z.object({
  url: z.string().min(1).max(8000).describe('The full http:// or https:// URL of the page.'),
});

const failure = (content: string): ToolResult => ({ content, isError: true });

/** Cut at the last line that fits, like read_file, and say so. */
function capped(text: string, page: FetchedPage): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= READ_MAX_OUTPUT_BYTES && !page.cut) return text;
  let kept = text;
  if (bytes > READ_MAX_OUTPUT_BYTES) {
    kept = Buffer.from(text)
      .subarray(0, READ_MAX_OUTPUT_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const lastLine = kept.lastIndexOf('\n');
    if (lastLine > READ_MAX_OUTPUT_BYTES / 2) kept = kept.slice(0, lastLine);
  }
  const whole = page.cut ? `more than ${formatSize(MAX_BODY_BYTES)} of page` : `${formatSize(bytes)}`;
  return `${kept}\n\n(The page was cut: this is the first ${formatSize(Buffer.byteLength(kept))} of ${whole}. Fetch a more specific URL, such as one section's page, for the rest.)`;
}

function header(page: FetchedPage, title: string | undefined, original: string): string {
  const lines = title ? [`Title: ${title}`] : [];
  lines.push(`URL: ${page.url.href}`);
  if (page.redirects.length > 0) lines.push(`(Redirected from ${original}.)`);
  return lines.join('\n');
}

export const webFetchTool: Tool<typeof inputSchema> = {
  name: 'web_fetch',
  kind: 'network',
  description: [
    'Fetch one web page (http or https) and return its content.',
    'HTML comes back as Markdown, title first, then headings, links (absolute URLs), emphasis, lists and code; scripts, styles, navigation and forms are dropped. Plain text, Markdown, JSON and XML come back as they are.',
    'Images, PDFs and other binary content are refused.',
    `The output is capped at about ${formatSize(READ_MAX_OUTPUT_BYTES)}; a longer page is cut, and says so. The first line says the final URL after redirects.`,
    "Each call fetches the page once, live (nothing is cached): use it to read documentation, an API's answer or an issue the person points to.",
    'Hosts follow the network policy: in some approval modes the person is asked before a new host; addresses on this machine and private networks are reached only when the person listed them, and a refusal says how.',
  ].join(' '),
  inputSchema,
  async run(input, context) {
    const policy = context.network;
    if (!policy) return failure('web_fetch has no network here: the host running Keel did not give it a network policy.');
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
    const fetched = await fetchPage(input.url, policy, signal);
    if (!fetched.ok) {
      const via = fetched.redirects.length > 0 ? ` (reached by a redirect from ${fetched.redirects.at(-1)!.href})` : '';
      if (fetched.kind === 'refused') {
        const redirected = fetched.redirects.length > 0 ? `The page redirected to ${fetched.url}${via}; Keel did not follow it. ` : '';
        return failure(`${redirected}${fetched.error.message}`);
      }
      return failure(`Could not fetch ${fetched.url}${via}: ${fetched.error}`);
    }
    const page = fetched.page;
    const { mime, charset } = parseContentType(page.contentType);
    if (page.status < 200 || page.status >= 300) {
      const excerpt = bodyKind(mime, page.body) === 'binary' ? '' : decodeBody(page.body.subarray(0, 4096), charset, 'text').trim().slice(0, 1000);
      return failure(
        `HTTP ${page.status}${page.statusText ? ` ${page.statusText}` : ''} from ${page.url.href}.${excerpt ? `\n\nThe answer began:\n${excerpt}` : ''}`,
      );
    }
    const kind = bodyKind(mime, page.body);
    if (kind === 'binary') {
      return failure(
        `${page.url.href} is ${mime || 'binary content'} (${page.cut ? `more than ${formatSize(MAX_BODY_BYTES)}` : formatSize(page.body.length)}), not text: web_fetch reads HTML, text and JSON only.`,
      );
    }
    const text = decodeBody(page.body, charset, kind);
    if (kind === 'html') {
      // Loaded with the first page: turndown and its DOM cost ~55 ms of every start of Keel otherwise.
      const { htmlToMarkdown } = await import('./htmlToMarkdown');
      const { title, markdown } = htmlToMarkdown(text, page.url);
      return { content: capped(`${header(page, title, input.url)}\n\n${markdown || '(The page has no text.)'}`, page), isError: false };
    }
    const typeLine = mime ? `\nContent-Type: ${mime}` : '';
    return { content: capped(`${header(page, undefined, input.url)}${typeLine}\n\n${text || '(The body is empty.)'}`, page), isError: false };
  },
};
