import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOGUE_FILE } from '../../../main/models/catalogueCache';
import { startAgentHarness, TEST_API_KEY, type AgentHarness } from '../../support/agentHarness';
import { reply, type ScriptedModel } from '../../support/scriptedAnthropic';
import { sendTask } from './scenario';

const SONNET_5: ScriptedModel = {
  id: 'claude-sonnet-5-5',
  max_input_tokens: 200_000,
  max_tokens: 128_000,
  thinking: ['adaptive'],
  effort: ['low', 'medium', 'high'],
};
const unset = (model: string) => ({ model, maxTokensSet: false, contextWindowSet: false, thinking: 'auto' as const });

const opened: AgentHarness[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const harness of opened.splice(0)) await harness.close();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Keel started twice on one data folder, against an endpoint at the same address each time. */
async function twoStarts(first: Parameters<typeof startAgentHarness>[1], second: Parameters<typeof startAgentHarness>[1]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
  dataDirs.push(dataDir);
  const a = await startAgentHarness([reply('First.'), reply('First again.')], { ...first, dataDir });
  opened.push(a);
  expect((await sendTask(a, 'hi')).outcome).toBe('done');
  const port = a.server.port;
  await a.close();
  opened.splice(opened.indexOf(a), 1);
  const b = await startAgentHarness([reply('Second.')], { ...second, dataDir, server: { ...second?.server, port } });
  opened.push(b);
  return { a, b, dataDir };
}

describe('the model catalogue kept in the data folder', () => {
  it('a second start uses the catalogue the first read: no lookup before its first request, the model’s limits and thinking', async () => {
    const { a, b, dataDir } = await twoStarts(
      { settings: unset('claude-sonnet-5-5'), server: { catalogue: [SONNET_5] } },
      // This endpoint no longer lists the model: only the kept catalogue can give 128,000.
      { settings: unset('claude-sonnet-5-5'), server: { catalogue: 'missing' } },
    );
    expect(a.server.modelRequests).toBeGreaterThan(0);
    expect((await sendTask(b, 'hi')).outcome).toBe('done');
    expect(b.server.modelRequests).toBe(0);
    const request = b.server.requests[0]!;
    expect(request.body.max_tokens).toBe(128_000);
    expect(request.body.thinking).toEqual({ type: 'adaptive' });
    expect(request.body.output_config).toEqual({ effort: 'medium' });
    // The key is kept only as a hash.
    expect(readFileSync(join(dataDir, MODEL_CATALOGUE_FILE), 'utf8')).not.toContain(TEST_API_KEY);
  });

  it('an endpoint that refused thinking is remembered across a restart: the next process does not ask it to think', async () => {
    const { a, b } = await twoStarts(
      { settings: { ...unset('claude-sonnet-5-5'), thinking: 'on' }, server: { refuseThinking: true, catalogue: 'missing' } },
      { settings: { ...unset('claude-sonnet-5-5'), thinking: 'on' }, server: { refuseThinking: true, catalogue: 'missing' } },
    );
    expect(a.server.requests.map((r) => Boolean(r.rejected))).toEqual([true, false]);
    expect((await sendTask(b, 'hi')).outcome).toBe('done');
    expect(b.server.requests.map((r) => [Boolean(r.rejected), r.body.thinking])).toEqual([[false, undefined]]);
  });

  it('a kept file that is not a catalogue is a warning, never a failure, and is written again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
    dataDirs.push(dataDir);
    writeFileSync(join(dataDir, MODEL_CATALOGUE_FILE), '{"format": 1, "endpoints": {"x": {"catalogue": {"models": "none"}}}');
    const warnings: string[] = [];
    const harness = await startAgentHarness([reply('Hi.')], {
      dataDir,
      settings: unset('claude-sonnet-5-5'),
      server: { catalogue: [SONNET_5] },
      core: { log: (line) => warnings.push(line) },
    });
    opened.push(harness);
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    expect(warnings.some((line) => line.includes(MODEL_CATALOGUE_FILE))).toBe(true);
    const kept = JSON.parse(readFileSync(join(dataDir, MODEL_CATALOGUE_FILE), 'utf8')) as {
      endpoints: Record<string, { catalogue?: { models: { id: string }[] } }>;
    };
    expect(Object.values(kept.endpoints).flatMap((e) => e.catalogue?.models.map((m) => m.id) ?? [])).toContain('claude-sonnet-5-5');
  });
});
