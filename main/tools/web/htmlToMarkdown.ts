import TurndownService from 'turndown';

/** What a model reads of a page: its title and its text as Markdown, without markup. */
export interface PageMarkdown {
  title: string | undefined;
  markdown: string;
}

// Nothing a reader sees as the page's content: code the page runs, its styling, its menus, its forms.
const DROPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'NAV',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'FORM',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
]);

function absolute(href: string, base: URL): string | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The page as Markdown: headings (ATX), emphasis, links and pictures with absolute URLs, lists,
 * fenced code; scripts, styles, navigation and forms dropped.
 */
export function htmlToMarkdown(html: string, base: URL): PageMarkdown {
  let title: string | undefined;
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' });
  turndown.remove((node) => DROPPED.has(node.nodeName.toUpperCase()));
  // Anything marked as the site's navigation goes the way <nav> does.
  turndown.addRule('navigation', {
    filter: (node) => node.getAttribute?.('role') === 'navigation' || node.getAttribute?.('aria-hidden') === 'true' || node.hasAttribute?.('hidden'),
    replacement: () => '',
  });
  turndown.addRule('title', {
    filter: 'title',
    replacement: (content) => {
      title ??= content.replace(/\s+/g, ' ').trim() || undefined;
      return '';
    },
  });
  turndown.addRule('link', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = absolute((node as HTMLElement).getAttribute('href') ?? '', base);
      const text = content.trim();
      if (href === null || text === '') return content;
      return `[${text}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });
  turndown.addRule('picture', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const src = absolute(element.getAttribute('src') ?? '', base);
      // data: pictures would fill the model's context with base64.
      if (src === null || src.startsWith('mailto:')) return alt;
      return `![${alt.replace(/[[\]]/g, '')}](${src})`;
    },
  });
  // Turndown pads list markers to four columns; one space reads the same and costs the model less.
  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as HTMLElement | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${node.nextSibling && !body.endsWith('\n') ? '\n' : ''}`;
    },
  });
  const markdown = turndown
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
}
