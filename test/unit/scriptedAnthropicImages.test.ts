import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from '../support/scriptedAnthropic';
import { makePng } from '../support/png';

// The scripted model checks image blocks as the real API does, so a test cannot pass with a picture the API would refuse.

const request = (source: object) => ({
  model: 'm',
  max_tokens: 10,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', source },
      ],
    },
  ],
});

describe('image blocks in the scripted model', () => {
  const png = makePng(4, 4).toString('base64');

  it('accepts a base64 PNG said to be a PNG, also inside a tool result', () => {
    expect(validateMessagesRequest(request({ type: 'base64', media_type: 'image/png', data: png }))).toBeNull();
    const inResult = {
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'a picture' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
              ],
            },
          ],
        },
      ],
    };
    expect(validateMessagesRequest(inResult)).toBeNull();
  });

  it('refuses a wrong media type, bytes of another type, bad base64 and more than 5 MB', () => {
    expect(validateMessagesRequest(request({ type: 'base64', media_type: 'image/bmp', data: png }))).toMatch(/media_type/);
    expect(validateMessagesRequest(request({ type: 'base64', media_type: 'image/jpeg', data: png }))).toMatch(/appears to be a image\/png image/);
    expect(validateMessagesRequest(request({ type: 'base64', media_type: 'image/png', data: 'not base64!' }))).toMatch(/base64/);
    const big = Buffer.concat([makePng(4, 4), Buffer.alloc(5 * 1024 * 1024)]).toString('base64');
    expect(validateMessagesRequest(request({ type: 'base64', media_type: 'image/png', data: big }))).toMatch(/exceeds 5 MB/);
    expect(validateMessagesRequest(request({ type: 'keel_blob', ref: 'x.png' }))).toMatch(/source.type/);
  });
});
