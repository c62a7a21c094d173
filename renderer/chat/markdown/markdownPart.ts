import { LazyPart } from '../../ui/lazyPart';

/** Markdown, sanitizing and code highlighting (marked, DOMPurify, highlight.js): a chunk of their own. */
export const markdownPart = new LazyPart('markdown', () => import('./renderBlock'));
