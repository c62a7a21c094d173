import type { ScriptedModel } from './types';

const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const THINKING_TYPES = ['adaptive', 'enabled', 'disabled', 'between_tools'] as const;

const support = (supported: boolean) => ({ supported });

/** One model as GET /v1/models lists it, capabilities in the API's shape (every key present). */
export function modelInfo(model: ScriptedModel): Record<string, unknown> {
  const thinking = model.thinking ?? [];
  const effort = model.effort ?? [];
  const serverTools = model.serverTools ?? [];
  const capabilities =
    model.capabilities === null
      ? null
      : {
          batch: support(true),
          citations: support(true),
          code_execution: support(serverTools.includes('code_execution')),
          context_management: {
            supported: true,
            clear_thinking_20251015: support(true),
            clear_tool_uses_20250919: support(true),
            compact_20260112: support(false),
          },
          effort: {
            supported: effort.length > 0,
            ...Object.fromEntries(EFFORT_LEVELS.map((level) => [level, support(effort.includes(level))])),
          },
          image_input: support(true),
          pdf_input: support(true),
          server_tools: {
            supported: serverTools.length > 0,
            web_search: support(serverTools.includes('web_search')),
            code_execution: support(serverTools.includes('code_execution')),
          },
          structured_outputs: support(true),
          thinking: {
            supported: thinking.some((t) => t !== 'disabled'),
            types: Object.fromEntries(THINKING_TYPES.map((type) => [type, support(type === 'disabled' || thinking.includes(type))])),
          },
        };
  const lifecycle = model.lifecycle ?? 'active';
  return {
    type: 'model',
    id: model.id,
    display_name: model.display_name ?? model.id,
    created_at: '2026-01-01T00:00:00Z',
    deprecated_at: lifecycle === 'active' ? null : '2026-06-01T00:00:00Z',
    retires_at: null,
    lifecycle,
    line: null,
    max_input_tokens: model.max_input_tokens ?? null,
    max_tokens: model.max_tokens ?? null,
    capabilities,
  };
}

/**
 * The 400 the API sends when a request asks a listed model for more than it lists (output
 * tokens, a thinking type, an effort level), or null. Models listed without capabilities are
 * checked for max_tokens only.
 */
export function checkAgainstModel(body: Record<string, unknown>, model: ScriptedModel | undefined): string | null {
  if (!model) return null;
  const maxTokens = body.max_tokens;
  if (model.max_tokens !== undefined && typeof maxTokens === 'number' && maxTokens > model.max_tokens) {
    return `max_tokens: ${maxTokens} > ${model.max_tokens}, which is the maximum allowed number of output tokens for ${model.id}`;
  }
  if (model.capabilities === null) return null;
  const tools = Array.isArray(body.tools) ? (body.tools as { type?: unknown }[]) : [];
  const search = tools.findIndex((t) => typeof t?.type === 'string' && /^web_search_\d{8}$/.test(t.type));
  // A server tool the model does not list is refused like the API does, before anything runs.
  if (search >= 0 && !(model.serverTools ?? []).includes('web_search')) {
    return `tools.${search}: '${String(tools[search]?.type)}' is not supported for model ${model.id}.`;
  }
  const thinking = body.thinking as { type?: unknown } | undefined;
  const type = thinking?.type;
  if (typeof type === 'string' && type !== 'disabled' && !(model.thinking ?? []).includes(type as never)) {
    return `thinking.type: '${type}' is not supported for model ${model.id}.`;
  }
  const effort = (body.output_config as { effort?: unknown } | undefined)?.effort;
  if (effort !== undefined && effort !== null && !(model.effort ?? []).includes(effort as never)) {
    return (model.effort ?? []).length === 0
      ? `output_config.effort: This model does not support the effort parameter.`
      : `output_config.effort: Input should be ${(model.effort ?? []).map((l) => `'${l}'`).join(', ')} for model ${model.id}`;
  }
  return null;
}
