import type { ThinkingConfigParam, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_EFFORT, EFFORT_LEVELS, type Effort, type ModelProfileView, type ValueSource } from '../../common/modelCapabilities';
import { DEFAULT_MAX_TOKENS, type EnvironmentSetValue, type ModelSettings } from '../settings/modelSettings';
import type { ModelFacts } from './modelFacts';
import { builtinFacts } from './builtinModels';
import { webSearchFor } from './webSearchOffer';

/** Claude Code's budget for models that take only a fixed one; it must stay under max_tokens. */
const THINKING_BUDGET = 31_999;
const MIN_THINKING_BUDGET = 1_024;

/**
 * Lets a model that takes a fixed thinking budget think again after each tool result, not only at
 * the start of its turn (adaptive thinking does so by itself). Claude Code sends it too.
 */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/** What one request is made with: the settings with the model's limits applied, and the thinking and effort to ask for. */
export interface ModelProfile {
  settings: ModelSettings;
  thinking?: ThinkingConfigParam;
  /** The API's beta features the request asks for (the `anthropic-beta` header). */
  betas?: string[];
  effort?: Effort;
  /** The API's server-side web search, offered beside Keel's own tools. */
  webSearch?: WebSearchTool20250305;
  view: ModelProfileView;
}

export interface ProfileInputs {
  settings: ModelSettings;
  /** The model as the endpoint lists it, else as the built-in table knows it. */
  facts?: ModelFacts;
  /** A window the service stated in a "N tokens > M maximum" refusal. */
  learnedWindow?: number;
  /** The endpoint refused thinking / effort once: they are not asked for again. */
  thinkingRefused?: boolean;
  effortRefused?: boolean;
  /** The session's choice in the status bar. */
  sessionEffort?: Effort;
  models?: ModelProfileView['models'];
  warning?: string;
}

/** Pure: the precedence of the person's settings, the endpoint, what was learned, and the defaults. */
export function resolveProfile(inputs: ProfileInputs): ModelProfile {
  const { settings, facts } = inputs;
  const factSource: ValueSource = facts?.source ?? 'default';

  const modelMax = facts?.maxTokens;
  // Settings built by hand (not read from a file) say nothing of where they came from: theirs are set values.
  const maxTokens =
    settings.maxTokensSet !== false
      ? { value: Math.min(settings.maxTokens, modelMax ?? Infinity), source: 'setting' as ValueSource }
      : { value: modelMax ?? DEFAULT_MAX_TOKENS, source: modelMax ? factSource : ('default' as ValueSource) };

  const setBy = (value: EnvironmentSetValue): ValueSource => (settings.fromEnvironment?.includes(value) ? 'environment' : 'setting');
  const baseWindow =
    settings.contextWindowSet !== false
      ? { value: settings.contextWindow, source: setBy('contextWindow') }
      : { value: facts?.maxInputTokens ?? settings.contextWindow, source: facts?.maxInputTokens ? factSource : ('default' as ValueSource) };
  const contextWindow =
    inputs.learnedWindow !== undefined && inputs.learnedWindow < baseWindow.value
      ? { value: inputs.learnedWindow, source: 'learned' as ValueSource }
      : baseWindow;

  const thinking = thinkingFor(inputs, maxTokens.value);
  const webSearch = webSearchFor(settings, facts);
  const levels = inputs.effortRefused || facts?.source !== 'endpoint' ? [] : (facts.effort ?? []);
  const effort = levels.length > 0 ? pickEffort(inputs.sessionEffort ?? settings.effort ?? DEFAULT_EFFORT, levels) : undefined;
  const effortSource: ValueSource = inputs.effortRefused
    ? 'learned'
    : inputs.sessionEffort
      ? 'session'
      : settings.effort
        ? setBy('effort')
        : levels.length
          ? 'endpoint'
          : 'default';

  return {
    settings: { ...settings, maxTokens: maxTokens.value, contextWindow: contextWindow.value },
    ...(thinking.param ? { thinking: thinking.param } : {}),
    ...(thinking.param?.type === 'enabled' ? { betas: [INTERLEAVED_THINKING_BETA] } : {}),
    ...(effort ? { effort } : {}),
    ...(webSearch.tool ? { webSearch: webSearch.tool } : {}),
    view: {
      model: settings.model,
      contextWindow,
      maxTokens,
      thinking: { value: thinking.param?.type === 'adaptive' ? 'adaptive' : thinking.param?.type === 'enabled' ? 'enabled' : 'none', source: thinking.source },
      webSearch: { value: webSearch.tool !== undefined, source: webSearch.source },
      effort: { value: effort ?? null, levels, source: effortSource },
      models: inputs.models ?? [],
      deprecated: facts?.deprecated ?? false,
      ...(inputs.warning ? { warning: inputs.warning } : {}),
    },
  };
}

function thinkingFor(inputs: ProfileInputs, maxTokens: number): { param?: ThinkingConfigParam; source: ValueSource } {
  const setting = inputs.settings.thinking ?? 'auto';
  const setBy: ValueSource = inputs.settings.fromEnvironment?.includes('thinking') ? 'environment' : 'setting';
  if (setting === 'off') return { source: setBy };
  if (inputs.thinkingRefused) return { source: 'learned' };
  const facts = inputs.facts;
  const listed = facts?.source === 'endpoint' && facts.thinking !== undefined;
  // An endpoint that does not say stays off unless the person turned thinking on.
  if (!listed && setting !== 'on') return { source: 'default' };
  const forms = facts?.thinking ?? { adaptive: false, enabled: true };
  const source: ValueSource = listed ? 'endpoint' : setBy;
  if (forms.adaptive) return { param: { type: 'adaptive' }, source };
  const budget = Math.min(THINKING_BUDGET, maxTokens - 1);
  if (forms.enabled && budget >= MIN_THINKING_BUDGET) return { param: { type: 'enabled', budget_tokens: budget }, source };
  return { source };
}

/** The chosen level where the model has it, else the nearest level below it, else its lowest. */
function pickEffort(wanted: Effort, levels: readonly Effort[]): Effort {
  if (levels.includes(wanted)) return wanted;
  const rank = EFFORT_LEVELS.indexOf(wanted);
  const below = levels.filter((level) => EFFORT_LEVELS.indexOf(level) < rank);
  return below.at(-1) ?? levels[0]!;
}

/** Without a catalogue: the built-in table's limits; thinking only when the person turned it on. */
export function builtinProfile(settings: ModelSettings, sessionEffort?: Effort): ModelProfile {
  const facts = builtinFacts(settings.model);
  return resolveProfile({ settings, ...(facts ? { facts } : {}), ...(sessionEffort ? { sessionEffort } : {}) });
}
