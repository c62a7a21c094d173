import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { cut, errorStatus, overloaded, reply, streamError, text, textOf, toolResults, toolResultText } from '../../support/scriptedAnthropic';
import { recordingTool, sendTask } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const savedText = (h: AgentHarness) => JSON.stringify(h.core.currentSession!.messages);
const transcriptOf = (h: AgentHarness) => readFileSync(h.core.currentSession!.transcriptPath, 'utf8');

describe('faults of the model API', () => {
  it('rides out an overloaded API (529 twice) and finishes the task', async () => {
    // retry-after-ms keeps the SDK's backoff short; the retries are still the SDK's own.
    harness = await startAgentHarness([overloaded({ 'retry-after-ms': '10' }), overloaded({ 'retry-after-ms': '10' }), reply(text('Answered after all.'))]);
    const finished = await sendTask(harness, 'hello');
    expect(finished.outcome).toBe('done');
    expect(harness.server.requests).toHaveLength(3);
    expect(harness.server.errors).toEqual([]);
    expect(textOf(harness.core.currentSession!.messages.at(-1))).toBe('Answered after all.');
  });

  it('tries a stream cut mid-message again, and keeps only the complete answer', async () => {
    harness = await startAgentHarness([
      cut(6, text('PARTIAL-ANSWER that breaks off somewhere in the middle of this sentence.')),
      reply(text('The complete answer.')),
    ]);
    const finished = await sendTask(harness, 'hello');
    expect(finished.outcome).toBe('done');
    expect(harness.server.requests).toHaveLength(2);
    expect(harness.server.errors).toEqual([]);

    // The person saw the start of the broken answer, then was told it is being tried again.
    const streamed = harness.events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
    expect(streamed).toContain('PARTIAL');
    expect(harness.events.filter((e) => e.type === 'stream_retry')).toEqual([expect.objectContaining({ type: 'stream_retry', attempt: 1 })]);
    const retryAt = harness.events.findIndex((e) => e.type === 'stream_retry');
    expect(harness.events.slice(0, retryAt).some((e) => e.type === 'text')).toBe(true);

    expect(savedText(harness)).not.toContain('PARTIAL');
    expect(transcriptOf(harness)).not.toContain('PARTIAL');
    expect(harness.core.currentSession!.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'hello'],
      ['assistant', 'The complete answer.'],
    ]);
    // The retried request is the same conversation, without the broken answer.
    expect(harness.server.requests[1]!.body.messages).toEqual(harness.server.requests[0]!.body.messages);
  });

  it('tries a stream that reports overloaded mid-message again', async () => {
    harness = await startAgentHarness([streamError(5, 'overloaded_error', text('PARTIAL-ANSWER that stops with an error event.')), reply(text('Fine now.'))]);
    const finished = await sendTask(harness, 'hello');
    expect(finished.outcome).toBe('done');
    expect(harness.server.requests).toHaveLength(2);
    expect(harness.events.some((e) => e.type === 'stream_retry')).toBe(true);
    expect(savedText(harness)).not.toContain('PARTIAL');
  });

  it('ends with a plain "check the API key" error on a refused key (401), and the key is never shown or saved', async () => {
    const wrongKey = 'sk-wrong-key-keel-4242424242';
    harness = await startAgentHarness([reply(text('never sent'))], { apiKey: wrongKey });
    const finished = await sendTask(harness, 'hello');
    expect(finished.outcome).toBe('error');
    expect(finished.message).toMatch(/API key was refused \(401\)/);
    expect(finished.message).toMatch(/Check the API key/);
    expect(finished.errorCode).toBe('auth');
    expect(harness.server.requests).toHaveLength(1); // no retries of a wrong key
    expect(harness.server.requests[0]!.rejected).toBeDefined();

    expect(JSON.stringify(harness.events)).not.toContain(wrongKey);
    expect(transcriptOf(harness)).not.toContain(wrongKey);
    expect(transcriptOf(harness)).toContain('"outcome":"error"');
    expect(transcriptOf(harness)).toContain('"errorCode":"auth"');
  });

  it.each([
    { status: 400, apiMessage: 'messages.0.content: Field required', says: /rejected the request \(400\)/, code: 'bad_request' },
    { status: 404, apiMessage: 'model: claude-test', says: /Not found \(404\).*Check the model name/, code: 'not_found' },
  ])('ends plainly on a $status, without retrying it', async ({ status, apiMessage, says, code }) => {
    harness = await startAgentHarness([errorStatus(status, { message: apiMessage })]);
    const finished = await sendTask(harness, 'hello');
    expect(finished.outcome).toBe('error');
    expect(finished.message).toMatch(says);
    expect(finished.errorCode).toBe(code);
    expect(finished.message).toContain(apiMessage);
    // The API's words, not the raw error JSON.
    expect(finished.message).not.toMatch(/[{}]|"type"|request_id/);
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.server.errors).toEqual([]);
    expect(harness.events.filter((e) => e.type === 'task_finished')).toHaveLength(1);
  });

  it('does not run a tool call whose input was cut off by max_tokens, and tells the model why', async () => {
    const writer = recordingTool('write_notes');
    harness = await startAgentHarness(
      [
        {
          ...reply(text('Writing the notes.'), {
            type: 'tool_use',
            id: 'toolu_cut',
            name: 'write_notes',
            input: {},
            partial_json: '{"path": "notes.md", "content": "# Notes\\n\\nThe first part of a long fi',
          }),
          stop_reason: 'max_tokens',
        },
        reply(text('I will write it in parts instead.')),
      ],
      { tools: [writer] },
    );
    const finished = await sendTask(harness, 'write the notes');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(writer.calls).toEqual([]);

    const [result] = toolResults(harness.server.requests[1]!);
    expect(result).toMatchObject({ tool_use_id: 'toolu_cut', is_error: true });
    expect(toolResultText(result!)).toMatch(/cut off by the max_tokens limit.*not run/);
  });

  it('asks the model to continue an answer cut by max_tokens, keeping both parts', async () => {
    harness = await startAgentHarness([{ ...reply(text('The first half of a long answer')), stop_reason: 'max_tokens' }, reply(text('and the second half.'))]);
    const finished = await sendTask(harness, 'explain');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(textOf(harness.server.requests[1]!.body.messages.at(-1))).toMatch(/cut off by the max_tokens limit/);
    expect(harness.core.currentSession!.messages.filter((m) => m.role === 'assistant').map((m) => textOf(m))).toEqual([
      'The first half of a long answer',
      'and the second half.',
    ]);
  });

  it('ends with max_tokens when every answer is cut, and says to raise the limit', async () => {
    const cutAnswer = () => ({ ...reply(text('An answer that never ends')), stop_reason: 'max_tokens' as const });
    harness = await startAgentHarness([cutAnswer(), cutAnswer(), cutAnswer(), cutAnswer()]);
    const finished = await sendTask(harness, 'explain');
    expect(finished.outcome).toBe('error');
    expect(finished.errorCode).toBe('max_tokens');
    expect(finished.message).toMatch(/Raise max tokens/);
    expect(harness.server.requests).toHaveLength(4);
    expect(harness.server.errors).toEqual([]);
  });

  it('ends the task as refused when the model refuses', async () => {
    harness = await startAgentHarness([{ ...reply(text('I cannot help with that.')), stop_reason: 'refusal' }, reply(text('Sure, here is a haiku.'))]);
    const finished = await sendTask(harness, 'something it refuses');
    expect(finished.outcome).toBe('refused');
    expect(finished.message).toMatch(/refusal/);
    expect(harness.server.requests).toHaveLength(1);

    // The session goes on with the next task.
    const next = await sendTask(harness, 'write a haiku');
    expect(next.outcome).toBe('done');
    expect(harness.server.requests[1]!.rejected).toBeUndefined();
  });
});
