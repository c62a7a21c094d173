import { ToolItemSchema, type ChatItem, type ToolItem } from '../../common/chat';
import { todoCallStep, type TodoCallStep } from '../../common/plan/callStep';
import { PlanItemSchema, PlanOverrideSchema, PlanStepSchema } from '../../common/plan/schemas';
import { TODO_TOOL_NAME } from '../../common/plan/todoToolDefinition';
import type { PlanVersion } from '../../common/plan/types';
import { addSources, citedPages, webSearchOutcome, webSearchQuery } from '../../common/webSearch';
import { recordItems } from './planRecords';
import { mcpShownText } from '../mcp/mcpResult';
import { isMcpToolName } from '../mcp/toolNames';
import { messageExtras, resultImages } from './timelineImages';
import { parseTranscriptRecord } from './transcriptRecords';

/**
 * The chat as the person saw it, rebuilt from transcript records in order: their messages,
 * the model's text, tool calls with their results, Keel's notices and each task's outcome.
 * A message sent while the agent worked takes its place where the agent took it (as in the live
 * chat, see `applyAgentEvent`); one the task ended without taking shows as not sent, and one
 * still waiting (a task that is running) as queued.
 */
export function timelineFromRecords(records: readonly unknown[]): ChatItem[] {
  const items: ChatItem[] = [];
  const tools = new Map<string, number>();
  /** Web searches by their server_tool_use id: the row their results fill in. */
  const searches = new Map<string, number>();
  let waiting: ({ id: string; text: string } & ReturnType<typeof messageExtras>)[] = [];
  let counter = 0;
  // The plan's versions as recorded, for what each accepted todo call replaced (as the live card has it).
  const versions: PlanVersion[] = [];
  const todoCalls: string[] = [];
  const steps = new Map<string, TodoCallStep>();
  // The person's answers to approval cards, by tool call: recorded while the call waited, before its result.
  const decisions = new Map<string, ToolItem['decision']>();
  for (const value of records) {
    // A record of the wrong shape is left out of the chat, as the restore skips it.
    const record = parseTranscriptRecord(value);
    if (record?.type === 'task' && record.event === 'start') {
      // Still waiting from a task that never recorded its end (Keel was closed mid-task): never sent.
      for (const message of waiting) items.push({ kind: 'user', ...message, notSent: true });
      waiting = [];
      items.push({ kind: 'user', id: `task-${record.taskId}`, text: record.text, ...messageExtras(record) });
    } else if (record?.type === 'task' && record.event === 'queued') {
      waiting.push({ id: record.id, text: record.text, ...messageExtras(record) });
    } else if (record?.type === 'task' && record.event === 'queue_taken') {
      const ids = new Set(record.ids);
      for (const message of waiting) if (ids.has(message.id)) items.push({ kind: 'user', ...message });
      waiting = waiting.filter((message) => !ids.has(message.id));
    } else if (record?.type === 'task' && record.event === 'approval') {
      const decision = DecisionSchema.safeParse(record.decision);
      if (decision.success) decisions.set(record.toolUseId, decision.data);
    } else if (record?.type === 'task' && record.event === 'end') {
      for (const message of waiting) items.push({ kind: 'user', ...message, notSent: true });
      waiting = [];
      items.push({
        kind: 'outcome',
        id: `end-${record.taskId}`,
        outcome: record.outcome,
        ...(record.message !== undefined ? { message: record.message } : {}),
        ...(record.errorCode !== undefined ? { errorCode: record.errorCode } : {}),
        ...(record.openSteps !== undefined ? { openSteps: record.openSteps } : {}),
      });
    } else if (record?.type === 'plan') {
      const read = recordItems(record, versions.at(-1));
      const parsed = 'items' in read ? PlanItemSchema.array().safeParse(read.items) : null;
      if (!parsed?.success) continue;
      const replaced = versions.at(-1)?.version ?? 0;
      versions.push({ version: record.version, source: record.source, items: parsed.data, at: record.at ?? '' });
      // Tools run in order and a todo call stores at most one version: the oldest call still waiting.
      const step = record.source === 'agent' ? todoCallStep(versions, replaced) : null;
      const call = step ? todoCalls.shift() : undefined;
      if (step && call) steps.set(call, step);
    } else if (record?.type === 'compaction') {
      items.push({ kind: 'compaction', ...record.info });
    } else if (record?.type === 'notice') {
      const overrides = PlanOverrideSchema.array().safeParse(record.overrides);
      const plan = PlanStepSchema.safeParse(record.plan);
      items.push({
        kind: 'notice',
        id: `notice-${counter++}`,
        notice: record.kind,
        text: record.message,
        ...(overrides.success ? { overrides: overrides.data } : {}),
        ...(plan.success ? { plan: plan.data } : {}),
      });
    } else if (record?.type === 'message') {
      const { role, content } = record.message;
      if (typeof content === 'string') continue;
      content.forEach((block, index) => {
        if (role === 'assistant' && block.type === 'text') {
          // The answer's text blocks one after another are one answer, as the live chat streams
          // them (a web search's answer comes in many, cited and not); its sources are theirs.
          const last = items.at(-1);
          const sources = citedPages(block);
          if (index > 0 && content[index - 1]!.type === 'text' && last?.kind === 'assistant') {
            const all = addSources(last.sources ?? [], sources);
            items[items.length - 1] = { ...last, text: last.text + block.text, ...(all.length > 0 ? { sources: all } : {}) };
          } else items.push({ kind: 'assistant', id: `text-${counter++}`, text: block.text, ...(sources.length > 0 ? { sources } : {}) });
        } else if (role === 'assistant' && block.type === 'thinking') {
          items.push({ kind: 'thinking', id: `thinking-${counter++}`, text: block.thinking });
        } else if (role === 'assistant' && block.type === 'redacted_thinking') {
          items.push({ kind: 'thinking', id: `thinking-${counter++}`, text: '', redacted: true });
        } else if (role === 'assistant' && block.type === 'server_tool_use' && block.name === 'web_search') {
          searches.set(block.id, items.length);
          items.push({ kind: 'web_search', id: block.id, query: webSearchQuery(block.input) });
        } else if (role === 'assistant' && block.type === 'web_search_tool_result') {
          const at = searches.get(block.tool_use_id);
          const search = at === undefined ? undefined : items[at];
          if (search?.kind === 'web_search') {
            const { results, errorCode } = webSearchOutcome(block.content);
            items[at!] = { ...search, results, ...(errorCode ? { errorCode } : {}) };
          }
        } else if (role === 'assistant' && block.type === 'tool_use') {
          tools.set(block.id, items.length);
          if (block.name === TODO_TOOL_NAME) todoCalls.push(block.id);
          items.push({ kind: 'tool', id: block.id, name: block.name, input: block.input });
        } else if (role === 'user' && block.type === 'tool_result') {
          const at = tools.get(block.tool_use_id);
          const tool = at === undefined ? undefined : items[at];
          if (tool?.kind === 'tool') {
            const content = isMcpToolName(tool.name) && Array.isArray(block.content) ? mcpShownText(block.content) : resultText(block.content);
            items[at!] = { ...tool, result: { content, isError: block.is_error === true, ...resultImages(block.content) }, ...steps.get(tool.id) };
            // A call refused (stale, invalid) stored nothing: it no longer waits for a version.
            const waiting = todoCalls.indexOf(tool.id);
            if (waiting >= 0) todoCalls.splice(waiting, 1);
          }
        }
      });
    }
  }
  for (const message of waiting) items.push({ kind: 'user', ...message, queued: true });
  return decisions.size === 0
    ? items
    : items.map((item) => (item.kind === 'tool' && decisions.has(item.id) ? { ...item, decision: decisions.get(item.id) } : item));
}

const DecisionSchema = ToolItemSchema.shape.decision.unwrap();

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
}
