import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { ChatItem } from '../../../common/chat';
import { applyAgentEvent } from '../../../common/chatReducer';
import { addSources, citedPages, isWebPage } from '../../../common/webSearch';
import { timelineFromRecords } from '../../../main/session/timeline';

const at = '2026-01-01T00:00:00.000Z';
const DOCS = { url: 'https://vitest.dev/guide/projects', title: 'Test Projects | Vitest' };
const BLOG = { url: 'https://blog.example.org/vitest', title: 'Vitest in practice' };

/** A cited text block as the API sends it. */
const cited = (text: string, ...pages: { url: string; title: string | null }[]) => ({
  type: 'text',
  text,
  citations: pages.map((page) => ({ type: 'web_search_result_location', ...page, cited_text: text, encrypted_index: 'Eo8BCi' })),
});

/** The answer of one round as the transcript keeps it: uncited and cited text blocks after a search. */
const answerBlocks = [
  { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest projects' } },
  { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', ...DOCS, encrypted_content: 'x', page_age: null }] },
  { type: 'text', text: 'In short: ' },
  cited('each project has its own config', DOCS),
  { type: 'text', text: ', and ' },
  cited('a root config can list them.', BLOG, DOCS),
];

describe('the pages an answer cites', () => {
  it('reads web search citations in order, each page once; a missing title is the address', () => {
    expect(citedPages(cited('x', DOCS, BLOG, DOCS))).toEqual([DOCS, BLOG]);
    expect(citedPages(cited('x', { url: DOCS.url, title: null }))).toEqual([{ url: DOCS.url, title: DOCS.url }]);
    // A document citation (char_location) names no page; a block without citations has none.
    expect(citedPages({ type: 'text', text: 'x', citations: [{ type: 'char_location', cited_text: 'x', document_index: 0 }] })).toEqual([]);
    expect(citedPages({ type: 'text', text: 'x' })).toEqual([]);
  });

  it('numbers sources in the order first cited; a page cited again keeps its number', () => {
    expect(addSources([DOCS], [BLOG, DOCS])).toEqual([DOCS, BLOG]);
  });

  it('links only web pages', () => {
    expect(isWebPage(DOCS.url)).toBe(true);
    expect(isWebPage('http://example.org/a')).toBe(true);
    expect(isWebPage('javascript:alert(1)')).toBe(false);
    expect(isWebPage('file:///etc/passwd')).toBe(false);
  });

  it('live: the answer gets its sources as each cited block ends, and keeps them once it is complete', () => {
    const events: AgentEvent[] = [
      { type: 'web_search', id: 'srvtoolu_1', query: 'vitest projects' },
      { type: 'web_search_results', id: 'srvtoolu_1', results: [DOCS] },
      { type: 'text', delta: 'In short: ' },
      { type: 'text', delta: 'each project has its own config' },
      { type: 'citations', sources: [DOCS] },
      { type: 'text', delta: ', and ' },
      { type: 'text', delta: 'a root config can list them.' },
      { type: 'citations', sources: [BLOG, DOCS] },
      { type: 'task_finished', taskId: 't1', outcome: 'done' },
    ];
    let n = 0;
    const items = events.reduce<ChatItem[]>((chat, event) => applyAgentEvent(chat, event, () => `id-${n++}`), []);
    const answer = items.find((item) => item.kind === 'assistant');
    expect(answer).toEqual({
      kind: 'assistant',
      id: 'id-0',
      text: 'In short: each project has its own config, and a root config can list them.',
      sources: [DOCS, BLOG],
    });
  });

  it('a stream tried again drops the void answer with its sources', () => {
    let chat: ChatItem[] = [];
    for (const event of [
      { type: 'text', delta: 'each project' },
      { type: 'citations', sources: [DOCS] },
      { type: 'stream_retry', attempt: 1, reason: 'cut' },
    ] as AgentEvent[])
      chat = applyAgentEvent(chat, event, () => 'a');
    expect(chat).toEqual([]);
  });

  it('after a reload: one answer from its text blocks, with the same sources, and the search row', () => {
    const items = timelineFromRecords([
      { type: 'task', event: 'start', taskId: 't1', text: 'How do Vitest projects work?', at },
      { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'How do Vitest projects work?' }] }, at },
      { type: 'message', message: { role: 'assistant', content: answerBlocks }, at },
      { type: 'task', event: 'end', taskId: 't1', outcome: 'done', at },
    ]);
    expect(items.map((item) => item.kind)).toEqual(['user', 'web_search', 'assistant', 'outcome']);
    expect(items[2]).toMatchObject({ text: 'In short: each project has its own config, and a root config can list them.', sources: [DOCS, BLOG] });
  });

  it('an answer without citations has no sources', () => {
    const items = timelineFromRecords([{ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Hi.' }] }, at }]);
    expect(items).toEqual([{ kind: 'assistant', id: 'text-0', text: 'Hi.' }]);
  });
});
