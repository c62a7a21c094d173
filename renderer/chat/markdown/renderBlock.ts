import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/common';
import { Marked, type Token, type Tokens, type TokensList } from 'marked';

/** One piece of a rendered block: sanitized HTML, or a code block the chat renders itself (with its copy button). */
export type RenderedPart = { kind: 'html'; html: string } | { kind: 'code'; lang: string; code: string; html: string };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const marked = new Marked({
  gfm: true,
  // A single newline in the agent's text is a line break, as in the chat of Claude Code or Cursor:
  // a long answer of short lines must not run together into one paragraph.
  breaks: true,
  renderer: {
    // Raw HTML in the model's text is shown as text, never parsed: even an inert parse of
    // `<img onerror=…>` trips the page's CSP, and no answer needs live HTML.
    html({ text }) {
      return escapeHtml(text);
    },
    // The page may only load its own images (CSP): a remote image becomes a link to it.
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

let hooked = false;
function purify(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      // Links open outside the window (the host hands https links to the browser).
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
      // A wide table scrolls sideways on its own; keyboard users reach it to scroll it.
      if (node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
    });
  }
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['img', 'style', 'form', 'iframe', 'video', 'audio', 'svg', 'math'], FORBID_ATTR: ['style'] });
}

/** Highlighted HTML of a code block: hljs escapes the code; the result is sanitized like everything else. */
export function highlightCode(code: string, lang: string): string {
  const language = lang && hljs.getLanguage(lang) ? lang : null;
  if (!language) return escapeHtml(code);
  return purify(hljs.highlight(code, { language, ignoreIllegals: true }).value);
}

/** Parses one block (see splitBlocks) into sanitized HTML parts and code blocks. */
export function renderBlock(source: string): RenderedPart[] {
  const tokens = marked.lexer(source);
  const parts: RenderedPart[] = [];
  let run: Token[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const list = Object.assign(run, { links: tokens.links }) as TokensList;
    const html = purify(marked.parser(list));
    if (html.trim() !== '') parts.push({ kind: 'html', html });
    run = [];
  };
  for (const token of tokens) {
    if (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented') {
      flush();
      const code = token as Tokens.Code;
      const lang = (code.lang ?? '').trim().split(/\s+/)[0]!.toLowerCase();
      parts.push({ kind: 'code', lang, code: code.text, html: highlightCode(code.text, lang) });
    } else {
      run.push(token);
    }
  }
  flush();
  return parts;
}
