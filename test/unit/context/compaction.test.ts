import { describe, expect, it } from 'vitest';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../../common/contextWindow';
import { applyClearing, chooseResultsToClear } from '../../../main/agent/compaction/clearResults';
import { chooseSummaryBoundary, compactedHead, compactedHistory } from '../../../main/agent/compaction/compactedHistory';
import { applyCompactionRecord } from '../../../main/agent/compaction/compactionRecord';
import { ContextTracker, isContextOverflow, parseOverflow } from '../../../main/agent/compaction/contextTracker';
import { clearedPlaceholder } from '../../../main/agent/compaction/placeholder';
import { summaryRequestMessages } from '../../../main/agent/compaction/summaryRequest';
import type { ChatMessage } from '../../../main/agent/messageTypes';
import { resolveModelSettings } from '../../../main/settings/modelSettings';
import { validateMessagesRequest } from '../../support/scriptedAnthropic';

const valid = (messages: ChatMessage[]) => validateMessagesRequest({ model: 'm', max_tokens: 10, messages });

/** A history of rounds, each a tool call and its result of `size` lines, ending (as when Keel makes room) with the last results. */
function history(sizes: number[], options: { image?: number } = {}): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'the task' }];
  sizes.forEach((size, i) => {
    const id = `toolu_${i}`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_file', input: { path: `f${i}.txt` } }] });
    const content: ContentBlockParam[] =
      options.image === i
        ? [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }]
        : [{ type: 'tool_result', tool_use_id: id, content: Array.from({ length: size }, (_, n) => `${String(n + 1).padStart(6)}\tline ${n + 1}`).join('\n') }];
    messages.push({ role: 'user', content });
  });
  return messages;
}

const resultOf = (messages: ChatMessage[], id: string) =>
  messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).find((b) => b.type === 'tool_result' && b.tool_use_id === id) as
    { content: unknown } | undefined;

describe('stage 1: clearing older tool results', () => {
  it('never clears the last three rounds, takes images first and then the biggest, and keeps every pair valid', () => {
    const messages = history([50, 400, 10, 200, 300, 300, 300], { image: 2 });
    // The picture frees what a picture costs (about 1,600 tokens), the 400-line result about 1,500.
    const chosen = chooseResultsToClear(messages, { keepRounds: 3, tokensToFree: 3_500 });
    expect(chosen.map((c) => c.toolUseId)).toEqual(['toolu_2', 'toolu_1', 'toolu_3']);
    const cleared = applyClearing(messages, chosen);
    expect(valid(cleared)).toBeNull();
    for (const id of ['toolu_4', 'toolu_5', 'toolu_6']) expect(resultOf(cleared, id)).toEqual(resultOf(messages, id));
    expect(resultOf(cleared, 'toolu_1')!.content).toBe('[read_file f1.txt, lines 1–400: cleared to make room; read it again if you need it]');
    // Unchanged messages are shared, not copied; the input is left alone.
    expect(cleared[1]).toBe(messages[1]);
    expect(resultOf(messages, 'toolu_1')!.content).not.toContain('cleared');
  });

  it('stops once enough is freed and does not clear a result twice', () => {
    const messages = history([400, 400, 400, 10, 10, 10]);
    const once = chooseResultsToClear(messages, { keepRounds: 3, tokensToFree: 100 });
    expect(once).toHaveLength(1);
    const cleared = applyClearing(messages, chooseResultsToClear(messages, { keepRounds: 3, tokensToFree: Infinity }));
    expect(chooseResultsToClear(cleared, { keepRounds: 3, tokensToFree: Infinity })).toEqual([]);
  });

  it("never clears a helper's result (delegate): it is the only record of the helper's work", () => {
    const messages = history([400, 400, 10, 10, 10]);
    const first = messages[2]!.content as ContentBlockParam[];
    (messages[1]!.content as ContentBlockParam[])[0] = { type: 'tool_use', id: 'toolu_0', name: 'delegate', input: { item: 'a', instructions: 'x' } };
    expect(first[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_0' });
    expect(chooseResultsToClear(messages, { keepRounds: 3, tokensToFree: Infinity }).map((c) => c.toolUseId)).toEqual(['toolu_1']);
  });

  it('says what was there and how to get it back, per tool', () => {
    const result = { type: 'tool_result' as const, tool_use_id: 't', content: 'x'.repeat(5000) };
    expect(clearedPlaceholder({ name: 'bash', input: { command: 'npm test\nnpm run lint' } }, result)).toBe(
      '[bash `npm test`: cleared to make room; run it again if you need its output]',
    );
    expect(clearedPlaceholder({ name: 'search_text', input: { pattern: 'TODO', path: 'src' } }, result)).toBe(
      '[search_text "TODO" in src: cleared to make room; search again if you need the matches]',
    );
    expect(clearedPlaceholder({ name: 'web_fetch', input: {} }, result)).toBe(
      '[web_fetch result (5000 characters): cleared to make room; call web_fetch again if you need it]',
    );
  });
});

describe('stage 2: the summarised history', () => {
  it("cuts at the model's turn, keeps recent rounds within the budget and always the last one", () => {
    const messages = history([100, 100, 100, 100, 2_000]);
    const tight = chooseSummaryBoundary(messages, 10);
    expect(messages[tight]!.role).toBe('assistant');
    expect(tight).toBe(messages.length - 2); // the last round (its call and huge result), even over the budget
    const roomy = chooseSummaryBoundary(messages, messages.slice(5).reduce((n, m) => n + estimateTokens(m.content), 0) + 10);
    expect(roomy).toBe(5);
    expect(chooseSummaryBoundary([{ role: 'user', content: 'hi' }], 1000)).toBe(0);
  });

  it('starts with the summary, the task and the plan from the store, and is a valid request', () => {
    const messages = history([100, 100, 100, 100]);
    const keptFrom = chooseSummaryBoundary(messages, 200);
    const head = compactedHead({
      summary: 'SUMMARY TEXT',
      task: 'fix the bug',
      plan: [
        { id: 'a', content: 'Find the bug', status: 'completed' },
        { id: 'b', content: 'Fix it', status: 'in_progress', activeForm: 'fixing it', blockedBy: ['a'] },
        { id: 'c', content: 'Test the fix', status: 'pending', blockedBy: ['b'] },
      ],
      summarizedMessages: keptFrom,
    });
    const next = compactedHistory(head, messages, keptFrom);
    expect(valid(next)).toBeNull();
    const headText = JSON.stringify(next[0]);
    expect(headText).toContain('SUMMARY TEXT');
    expect(headText).toContain('fix the bug');
    // The whole graph: ids, what waits for what, and what is ready.
    expect(headText).toContain('[x] #a Find the bug\\n[>] #b Fix it (fixing it; after #a)\\n[ ] #c Test the fix (blocked by #b)');
    // Replaying the record on the same messages gives the same view (resume).
    expect(applyCompactionRecord(messages, { cleared: [], keptFrom, head })).toEqual(next);
  });

  it('clips the summary request to its budget, keeping the start and mostly the end', () => {
    const messages = history([3_000, 3_000, 3_000, 3_000]);
    const [request] = summaryRequestMessages(messages, 2_000);
    expect(estimateTokens(request!.content)).toBeLessThanOrEqual(2_100);
    expect(request!.content).toContain('the task');
    expect(request!.content).toMatch(/characters left out here to fit/);
    expect(request!.content).toMatch(/Next steps/);
  });
});

describe('knowing the window', () => {
  it('tracks the last request from usage plus an estimate of what was added, and learns from a refusal', () => {
    const tracker = new ContextTracker();
    const messages = history([100]);
    expect(tracker.estimate(500, messages)).toBe(500 + messages.reduce((n, m) => n + estimateTokens(m), 0));
    tracker.observe({ input_tokens: 1_000, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 200 }, 2);
    expect(tracker.estimate(500, messages)).toBe(6_200 + messages.slice(2).reduce((n, m) => n + estimateTokens(m), 0));
    tracker.learnFromRefusal(parseOverflow('prompt is too long: 31480 tokens > 30000 maximum'), 20_000);
    expect(tracker.window(200_000)).toBe(30_000);
  });

  it("recognises the API's too-long answers", () => {
    expect(isContextOverflow('The API rejected the request (400): prompt is too long: 31480 tokens > 30000 maximum')).toBe(true);
    expect(isContextOverflow('The API answered 413 after retries: request_too_large')).toBe(true);
    expect(isContextOverflow('The API rejected the request (400): messages.0: bad')).toBe(false);
    expect(parseOverflow('prompt is too long: 1,234 tokens > 1,000 maximum')).toEqual({ tokens: 1234, limit: 1000 });
  });

  it('reads contextWindow and compactAt from the settings file, KEEL_CONTEXT_WINDOW winning', () => {
    expect(resolveModelSettings({}, {})).toMatchObject({ contextWindow: 200_000, compactAt: 0.8 });
    expect(resolveModelSettings({ contextWindow: 100_000, compactAt: 0.7 }, {})).toMatchObject({ contextWindow: 100_000, compactAt: 0.7 });
    expect(resolveModelSettings({ contextWindow: 100_000 }, { KEEL_CONTEXT_WINDOW: '30000' }).contextWindow).toBe(30_000);
    expect(resolveModelSettings({ contextWindow: 100_000 }, { KEEL_CONTEXT_WINDOW: 'lots' }).contextWindow).toBe(100_000);
  });
});

describe('the size estimate of a picture', () => {
  it('counts a pasted screenshot by its pixels, not by its base64, so it does not force a summary', () => {
    const data = 'A'.repeat(6_700_000);
    const content = [
      { type: 'text', text: 'here is the error' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
    ];
    const estimate = estimateTokens(content);
    expect(estimate).toBeGreaterThanOrEqual(1_600);
    expect(estimate).toBeLessThan(2_000);
  });
});
