import { z } from 'zod';
import type { Tool as ApiTool, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Tool, ToolContext, ToolResult } from '../tools/types';

/** A tool as the agent holds it: the runtime tool, and optionally the schema shown to the model. */
export interface AgentTool extends Tool {
  /** When set, shown to the model instead of the schema derived from inputSchema. */
  modelSchema?: ApiTool['input_schema'];
  /** For an MCP server's tool: which server and tool it calls (the approval card shows them). */
  mcp?: { server: string; tool: string; serverRule: string };
  /**
   * Calls of this tool in one answer run side by side (each `delegate` waits for its helper): the
   * round starts them in order and awaits them together; every other call still runs one by one.
   */
  concurrent?: boolean;
  /** Not offered to the model, but answered if it calls it anyway (a helper's `delegate` refusal). */
  hidden?: boolean;
}

export function toolDefinitions(tools: readonly AgentTool[]): ApiTool[] {
  const offered = tools.filter((tool) => !tool.hidden);
  return offered.map((tool, index) => {
    const definition: ApiTool = { name: tool.name, description: tool.description, input_schema: modelSchemaOf(tool) };
    // The tool list is part of the stable prefix: cache it with the system prompt.
    if (index === offered.length - 1) definition.cache_control = { type: 'ephemeral' };
    return definition;
  });
}

/** Each tool's JSON schema, derived once: the loop asks for the definitions every round. */
const derivedSchemas = new WeakMap<AgentTool, ApiTool['input_schema']>();

function modelSchemaOf(tool: AgentTool): ApiTool['input_schema'] {
  let schema = derivedSchemas.get(tool);
  if (!schema) {
    const { $schema: _ignored, ...rest } = (tool.modelSchema ?? z.toJSONSchema(tool.inputSchema)) as Record<string, unknown>;
    schema = rest as ApiTool['input_schema'];
    derivedSchemas.set(tool, schema);
  }
  return schema;
}

/** Runs one call; an unknown tool, invalid input or a throwing tool becomes an is_error result. */
export async function runToolCall(tools: readonly AgentTool[], call: ToolUseBlock, context: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    return {
      isError: true,
      content: `There is no tool named "${call.name}". Available tools: ${tools
        .filter((t) => !t.hidden)
        .map((t) => t.name)
        .join(', ')}.`,
    };
  }
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'input'}: ${i.message}`).join('; ');
    return { isError: true, content: `Invalid input for ${call.name}: ${issues}. Fix the input and call the tool again.` };
  }
  try {
    return await tool.run(parsed.data, context);
  } catch (error) {
    return { isError: true, content: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The pictures a result gives the model (read_file's, or an MCP tool's among its blocks), for the chat card. */
export function resultPictures(result: ToolResult): NonNullable<ToolResult['images']> {
  if (result.images?.length) return result.images;
  return (result.blocks ?? []).flatMap((block) =>
    block.type === 'image' && block.source.type === 'base64' ? [{ mediaType: block.source.media_type, data: block.source.data }] : [],
  );
}

export function toolResultBlock(id: string, result: ToolResult): ToolResultBlockParam {
  // The API refuses empty text; an empty result still says something.
  const text = result.content === '' ? '(no output)' : result.content;
  const content: ToolResultBlockParam['content'] = result.blocks?.length
    ? result.blocks
    : result.images?.length
      ? [
          { type: 'text', text },
          ...result.images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mediaType, data: image.data } })),
        ]
      : text;
  return result.isError ? { type: 'tool_result', tool_use_id: id, content, is_error: true } : { type: 'tool_result', tool_use_id: id, content };
}
