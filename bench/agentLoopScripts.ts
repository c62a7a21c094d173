import { createHash } from 'node:crypto';
import type { ModelSettings } from '../main/settings/modelSettings';
import {
  redactedThinking,
  reply,
  text,
  thinking,
  toolUse,
  type ReplyBlock,
  type ScriptedAnthropicOptions,
  type ScriptedModel,
  type StaticStep,
} from '../test/support/scriptedAnthropic';

/** What the scripted model is and says in one variant of the agent-loop bench. */
export interface LoopVariant {
  title: string;
  /** The scripted model's reply in round `index` (0-based) of `rounds`. */
  reply(index: number, rounds: number): StaticStep;
  /** Keel's model settings for this variant (over the harness's defaults). */
  settings?: Partial<ModelSettings>;
  /** The scripted server's options, the same for Keel's server and the baseline's. */
  server: Omit<ScriptedAnthropicOptions, 'script' | 'apiKey'>;
  /** Throws when a request Keel sent is not the kind this variant measures. */
  checkRequest?(body: { thinking?: unknown }): void;
}

const PLAN = 'Call the noop tool round after round';

/** The plain loop: a plan, the noop tool round after round, the plan completed, an answer. */
export const plainLoop: LoopVariant = {
  title: 'plain history',
  server: {},
  reply(index, rounds) {
    return reply(...roundBlocks(index, rounds));
  },
};

const SONNET_5: ScriptedModel = {
  id: 'claude-sonnet-5-5',
  max_input_tokens: 200_000,
  max_tokens: 128_000,
  thinking: ['adaptive'],
  effort: ['low', 'medium', 'high', 'xhigh', 'max'],
};

/** Every REDACTED_EVERY-th round's turn opens with redacted_thinking instead of thinking. */
const REDACTED_EVERY = 5;

/**
 * The same rounds from a model that thinks (adaptive, from the endpoint's catalogue): every
 * assistant turn opens with a signed thinking block (a redacted one every fifth round), then its
 * text and tool call, as the API sends them. The signatures and the tool ids are fixed by the
 * script, so the baseline's server, replaying Keel's bodies, issued the very blocks it gets back.
 */
export const thinkingLoop: LoopVariant = {
  title: 'signed thinking blocks in the history',
  settings: { model: SONNET_5.id, maxTokensSet: false, contextWindowSet: false, thinking: 'auto' },
  server: { catalogue: [SONNET_5] },
  reply(index, rounds) {
    const opening: ReplyBlock =
      index % REDACTED_EVERY === REDACTED_EVERY - 1
        ? redactedThinking(opaque(`redacted ${index}`, 8))
        : thinking(reasoning(index), opaque(`signature ${index}`, 5));
    return reply(opening, ...roundBlocks(index, rounds, `toolu_bench_${String(index).padStart(4, '0')}`));
  },
  checkRequest(body) {
    if ((body.thinking as { type?: unknown } | undefined)?.type !== 'adaptive')
      throw new Error(`Keel sent thinking ${JSON.stringify(body.thinking)}, not adaptive: the bench would not measure a thinking history`);
  },
};

function roundBlocks(index: number, rounds: number, toolId?: string): ReplyBlock[] {
  if (index === 0) {
    return [
      text('I will plan this, then run the noop tool until it is done.'),
      toolUse('todo', { items: [{ content: PLAN, status: 'in_progress', activeForm: 'calling noop' }] }, toolId),
    ];
  }
  if (index === rounds - 2) return [text('That was the last one.'), toolUse('todo', { items: [{ content: PLAN, status: 'completed' }] }, toolId)];
  if (index === rounds - 1) return [text('Done: the noop tool ran every round and the plan is complete.')];
  return [text(`Round ${index + 1}: calling noop again.`), toolUse('noop', {}, toolId)];
}

/** A paragraph of reasoning, about the size a model thinks before a small step (~700 characters). */
function reasoning(index: number): string {
  return (
    `Round ${index + 1}. The plan has one step in progress and the person asked for the noop tool round after round. ` +
    'The last result was "ok", which is what noop always answers, so nothing in the folder changed and there is no error to handle. ' +
    'I should not mark the step completed yet: the task is to keep calling it until the rounds are done. ' +
    'Before calling it again, check that the plan still says what I am doing, that no user edit arrived, and that the tool takes no input. ' +
    'It takes an empty object. Calling noop with {} is the right next step; then I will look at the result again.'
  );
}

/** Base64 as opaque as the API's signatures and redacted data: `blocks` × 64 bytes of hashes. */
function opaque(seed: string, blocks: number): string {
  const parts = Array.from({ length: blocks }, (_, i) => createHash('sha512').update(`${seed} ${i}`).digest());
  return Buffer.concat(parts).toString('base64');
}
