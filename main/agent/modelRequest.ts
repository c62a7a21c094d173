import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ModelCatalogue } from '../models/modelCatalogue';
import type { ModelProfile } from '../models/modelProfile';
import { ModelError, streamRound, type RoundCallbacks } from './modelClient';

type RoundParams = Omit<MessageCreateParamsStreaming, 'stream' | 'thinking' | 'output_config'>;

/** A 400 that names thinking or effort: the endpoint does not take that parameter. */
const NAMES_THINKING = /\bthinking\b/i;
const NAMES_EFFORT = /\beffort\b|output_config/i;
/** A 400 about the beta header: the endpoint does not know a beta Keel asked for. */
const NAMES_BETA = /anthropic-beta/i;
/** A 400 about the web search tool's definition (its versioned type), not about search blocks in the history. */
const NAMES_WEB_SEARCH_TOOL = /web_search_\d{8}/;

/**
 * One round with the model's thinking, effort and web search: asked for in the form the profile
 * says, and when the endpoint refuses one of them (a 400 naming it), asked once more without it. The
 * endpoint is remembered as refusing it, and `onFallback` tells the person.
 */
export async function requestRound(
  client: Anthropic,
  profile: ModelProfile,
  params: RoundParams,
  callbacks: RoundCallbacks,
  signal: AbortSignal,
  learn: { catalogue?: ModelCatalogue | undefined; onFallback: (message: string) => void },
): Promise<Message> {
  let thinking = profile.thinking;
  let effort = profile.effort;
  let webSearch = profile.webSearch;
  let betas = profile.betas;
  for (;;) {
    const body: Omit<MessageCreateParamsStreaming, 'stream'> = {
      ...params,
      ...(webSearch ? { tools: [...(params.tools ?? []), webSearch] } : {}),
      ...(thinking ? { thinking } : {}),
      ...(effort ? { output_config: { effort } } : {}),
    };
    try {
      return await streamRound(client, body, callbacks, signal, profile.settings, undefined, betas?.length ? { 'anthropic-beta': betas.join(',') } : undefined);
    } catch (error) {
      if (signal.aborted || !(error instanceof ModelError) || error.code !== 'bad_request') throw error;
      // First: a refused beta's name may itself say "thinking" (interleaved-thinking-…).
      if (betas?.length && NAMES_BETA.test(error.message)) {
        betas = undefined;
        profile.betas = undefined;
        learn.onFallback(`The endpoint refused Keel's beta features (${shortDetail(error.message)}), so Keel asked again without them for this task.`);
        continue;
      }
      // Thinking blocks the service itself sent are never what it refuses; only the parameter is.
      if (thinking && NAMES_THINKING.test(error.message) && !/signature|Expected `thinking`/i.test(error.message)) {
        thinking = undefined;
        profile.thinking = undefined;
        learn.catalogue?.learnThinkingRefused(profile.settings);
        learn.onFallback(
          `The endpoint refused thinking (${shortDetail(error.message)}), so Keel asked again without it and will not ask this endpoint to think again.`,
        );
        continue;
      }
      if (effort && NAMES_EFFORT.test(error.message)) {
        effort = undefined;
        profile.effort = undefined;
        learn.catalogue?.learnEffortRefused(profile.settings);
        learn.onFallback(`The endpoint refused the effort setting (${shortDetail(error.message)}), so Keel asked again without it.`);
        continue;
      }
      if (webSearch && NAMES_WEB_SEARCH_TOOL.test(error.message)) {
        webSearch = undefined;
        profile.webSearch = undefined;
        learn.onFallback(`The endpoint refused web search (${shortDetail(error.message)}), so Keel asked again without it for this task.`);
        continue;
      }
      throw error;
    }
  }
}

function shortDetail(message: string): string {
  const detail = message.replace(/^The API rejected the request \(400\): /, '');
  return detail.length > 160 ? `${detail.slice(0, 157)}…` : detail;
}
