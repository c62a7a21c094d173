import type Anthropic from '@anthropic-ai/sdk';

export type AnthropicSdk = typeof Anthropic;

let loading: Promise<AnthropicSdk> | undefined;
let loaded: AnthropicSdk | undefined;

/**
 * The Anthropic SDK, imported with the first request, connection test or catalogue fetch: ~175
 * ms of loading that a start of `keel web` or the window need not wait for before it serves.
 */
export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  loading ??= import('@anthropic-ai/sdk').then((module) => (loaded = module.default));
  return loading;
}

/** The SDK once loaded; an error of the SDK's can exist only then. */
export function loadedAnthropicSdk(): AnthropicSdk | undefined {
  return loaded;
}
