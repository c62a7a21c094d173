import { afterEach, describe, expect, it } from 'vitest';
import type { ModelErrorCode } from '../../../common/errorCodes';
import { createModelClient, ModelError, streamRound } from '../../../main/agent/modelClient';
import { resolveModelSettings, type ModelSettings } from '../../../main/settings/modelSettings';
import { cut, errorStatus, startScriptedAnthropic, type ScriptedAnthropic, type Step } from '../../support/scriptedAnthropic';

let server: ScriptedAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-test-model-errors';

/** One round against the scripted API through the real SDK; the ModelError it ends with. */
async function failedRound(script: Step[], settings: Partial<ModelSettings> = {}): Promise<ModelError> {
  server = await startScriptedAnthropic({ script, apiKey: KEY });
  const resolved = { ...resolveModelSettings({ apiKey: KEY, baseURL: server.baseURL }, {}), ...settings };
  return roundError(resolved);
}

async function roundError(settings: ModelSettings): Promise<ModelError> {
  const params = { model: settings.model, max_tokens: 64, messages: [{ role: 'user' as const, content: 'hello' }] };
  try {
    await streamRound(
      await createModelClient(settings),
      params,
      { onText: () => undefined, onRetry: () => undefined },
      new AbortController().signal,
      settings,
      5_000,
    );
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('the round did not fail');
}

describe('a failed model request carries its kind as a code, beside main’s English', () => {
  it('no key: no_key, before anything is sent', async () => {
    const settings = resolveModelSettings({}, {});
    await expect(createModelClient(settings)).rejects.toThrow(expect.objectContaining({ code: 'no_key' satisfies ModelErrorCode }));
  });

  it('a refused key (401): auth, and the key is not in the message', async () => {
    const error = await failedRound([], { apiKey: 'sk-wrong-key-4242' });
    expect(error.code).toBe('auth');
    expect(error.message).not.toContain('sk-wrong-key-4242');
  });

  it.each<{ status: number; code: ModelErrorCode }>([
    { status: 400, code: 'bad_request' },
    { status: 403, code: 'forbidden' },
    { status: 404, code: 'not_found' },
    { status: 422, code: 'api' },
  ])('status $status: $code, with the API’s own words in the message', async ({ status, code }) => {
    const error = await failedRound([errorStatus(status, { message: 'the api says why' })]);
    expect(error.code).toBe(code);
    expect(error.message).toContain('the api says why');
  });

  it('still overloaded after the SDK’s retries (529): overloaded', async () => {
    const busy = () => errorStatus(529, { headers: { 'retry-after-ms': '1' } });
    const error = await failedRound([busy(), busy(), busy(), busy(), busy()]);
    expect(error.code).toBe('overloaded');
    expect(server!.requests).toHaveLength(5);
  });

  it('a stream cut every time it is tried: connection', async () => {
    const error = await failedRound([cut(3), cut(3), cut(3), cut(3)]);
    expect(error.code).toBe('connection');
    expect(error.message).toContain(server!.baseURL);
    expect(server!.requests).toHaveLength(4);
  });
});
