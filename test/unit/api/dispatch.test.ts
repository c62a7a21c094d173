import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../common/errorCodes';
import { dispatchRequest, type Handlers } from '../../../main/api/dispatch';
import { ok } from '../../../common/result';

const handlers = {
  'settings.update': () => {
    throw new Error('disk full');
  },
  'settings.get': () => ok({}),
} as unknown as Handlers;

describe('the door into main answers with codes and structured details', () => {
  it('a malformed payload: bad_request, with each refused field as { path, message }', async () => {
    const result = await dispatchRequest(handlers, 'settings.update', { baseURL: 42, maxTokens: -1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(ErrorCodes.badRequest);
    const fields = (result.error.details as { fields: { path: string; message: string }[] }).fields;
    expect(fields.map((f) => f.path).sort()).toEqual(['baseURL', 'maxTokens']);
    for (const field of fields) expect(field.message).toEqual(expect.any(String));
  });

  it('a problem with the whole payload has the empty path', async () => {
    const result = await dispatchRequest(handlers, 'settings.update', 'not an object');
    expect(result.ok ? null : result.error.details).toEqual({ fields: [{ path: '', message: expect.any(String) }] });
  });

  it('a channel not in the contract: unknown_channel', async () => {
    const result = await dispatchRequest(handlers, 'settings.explode', {});
    expect(result.ok ? null : result.error.code).toBe(ErrorCodes.unknownChannel);
  });

  it('a handler that throws: internal, with its reason', async () => {
    const result = await dispatchRequest(handlers, 'settings.update', {});
    expect(result.ok ? null : result.error).toEqual({ code: ErrorCodes.internal, message: expect.stringContaining('disk full') });
  });
});
