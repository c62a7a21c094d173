import type { WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import type { ValueSource } from '../../common/modelCapabilities';
import type { ModelSettings } from '../settings/modelSettings';
import type { ModelFacts } from './modelFacts';

/** Searches one request may run; each is billed by the API, so a runaway turn stays bounded. */
export const WEB_SEARCH_MAX_USES = 8;

const ANTHROPIC_HOST = 'api.anthropic.com';

/** No base URL (the SDK's default) or one on Anthropic's own API host. */
export function isAnthropicEndpoint(baseURL: string | undefined): boolean {
  if (baseURL === undefined || baseURL.trim() === '') return true;
  try {
    return new URL(baseURL).hostname.toLowerCase() === ANTHROPIC_HOST;
  } catch {
    return false;
  }
}

/**
 * Whether the model is offered the API's server-side web search. Only where the endpoint's own
 * catalogue lists it for the model: the built-in table cannot know what an endpoint runs. With
 * `auto` the endpoint must also be Anthropic's (a compatible endpoint may list capabilities it
 * passes on but does not run); `on` trusts any endpoint whose catalogue lists it.
 */
export function webSearchFor(settings: ModelSettings, facts: ModelFacts | undefined): { tool?: WebSearchTool20250305; source: ValueSource } {
  const setting = settings.webSearch ?? 'auto';
  const setBy: ValueSource = settings.fromEnvironment?.includes('webSearch') ? 'environment' : 'setting';
  if (setting === 'off') return { source: setBy };
  const listed = facts?.source === 'endpoint' && facts.webSearch === true;
  if (!listed) return { source: facts?.source === 'endpoint' ? 'endpoint' : 'default' };
  if (setting === 'auto' && !isAnthropicEndpoint(settings.baseURL)) return { source: 'default' };
  return { tool: { type: 'web_search_20250305', name: 'web_search', max_uses: WEB_SEARCH_MAX_USES }, source: setting === 'on' ? setBy : 'endpoint' };
}
