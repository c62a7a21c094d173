/**
 * Request validation modelled on the real Messages API: returns the message of the 400
 * invalid_request_error the real API would send (wording copied where known), or null.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_CACHE_BREAKPOINTS = 4;

export function validateMessagesRequest(body: unknown): string | null {
  try {
    check(body);
    return null;
  } catch (e) {
    if (e instanceof Invalid) return e.message;
    throw e;
  }
}

interface Ctx {
  cacheControls: number;
}

function check(body: unknown): void {
  if (!isObj(body)) fail('Input should be a valid dictionary');
  const ctx: Ctx = { cacheControls: 0 };

  if (body.model === undefined) fail('model: Field required');
  if (typeof body.model !== 'string') fail('model: Input should be a valid string');
  if (body.model === '') fail('model: String should have at least 1 character');

  if (body.max_tokens === undefined) fail('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) fail('max_tokens: Input should be a valid integer');
  if (body.max_tokens < 1) fail('max_tokens: Input should be greater than or equal to 1');

  if (body.messages === undefined) fail('messages: Field required');
  if (!Array.isArray(body.messages)) fail('messages: Input should be a valid list');

  if (body.stream !== undefined && typeof body.stream !== 'boolean') fail('stream: Input should be a valid boolean');
  if (body.temperature !== undefined) {
    if (typeof body.temperature !== 'number') fail('temperature: Input should be a valid number');
    if (body.temperature < 0) fail('temperature: Input should be greater than or equal to 0');
    if (body.temperature > 1) fail('temperature: Input should be less than or equal to 1');
  }

  checkSystem(body.system, ctx);
  checkTools(body.tools, ctx);
  checkThinking(body.thinking, body.max_tokens);

  const messages = body.messages;
  if (messages.length === 0) fail('messages: at least one message is required');
  messages.forEach((m, i) => checkMessageShape(m, i, messages.length, ctx));
  checkConversation(messages as Msg[]);

  if (ctx.cacheControls > MAX_CACHE_BREAKPOINTS) {
    fail(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${ctx.cacheControls}.`);
  }
}

function countCache(block: Obj, ctx: Ctx): void {
  if (block.cache_control !== undefined && block.cache_control !== null) ctx.cacheControls++;
}

function checkSystem(system: unknown, ctx: Ctx): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) fail('system: Input should be a valid string or a valid list');
  system.forEach((b, j) => {
    if (!isObj(b) || b.type !== 'text') fail(`system.${j}.type: Input should be 'text'`);
    if (typeof b.text !== 'string') fail(`system.${j}.text: Field required`);
    if (b.text === '') fail('system: text content blocks must be non-empty');
    countCache(b, ctx);
  });
}

function checkTools(tools: unknown, ctx: Ctx): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) fail('tools: Input should be a valid list');
  const names = new Set<string>();
  tools.forEach((t, k) => {
    if (!isObj(t)) fail(`tools.${k}: Input should be a valid dictionary`);
    countCache(t, ctx);
    const custom = t.type === undefined || t.type === null || t.type === 'custom';
    if (typeof t.name !== 'string') fail(`tools.${k}.custom.name: Field required`);
    if (custom) {
      if (!TOOL_NAME.test(t.name)) fail(`tools.${k}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
      if (t.input_schema === undefined) fail(`tools.${k}.custom.input_schema: Field required`);
      if (!isObj(t.input_schema)) fail(`tools.${k}.custom.input_schema: Input should be a valid dictionary`);
      if (t.input_schema.type !== 'object') fail(`tools.${k}.custom.input_schema.type: Input should be 'object'`);
    }
    if (typeof t.type === 'string' && /^web_search_\d{8}$/.test(t.type)) checkWebSearchTool(t, `tools.${k}.${t.type}`);
    if (names.has(t.name)) fail('tools: Tool names must be unique.');
    names.add(t.name);
  });
}

/** The server-side web search tool's own fields, as the API checks them. */
function checkWebSearchTool(t: Obj, path: string): void {
  if (t.name !== 'web_search') fail(`${path}.name: Input should be 'web_search'`);
  if (t.max_uses !== undefined && t.max_uses !== null) {
    if (typeof t.max_uses !== 'number' || !Number.isInteger(t.max_uses)) fail(`${path}.max_uses: Input should be a valid integer`);
    if (t.max_uses < 1) fail(`${path}.max_uses: Input should be greater than 0`);
  }
  for (const key of ['allowed_domains', 'blocked_domains'] as const) {
    const list = t[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.some((d) => typeof d !== 'string')) fail(`${path}.${key}: Input should be a valid list of strings`);
  }
  const both = (key: 'allowed_domains' | 'blocked_domains'): boolean => t[key] !== undefined && t[key] !== null;
  if (both('allowed_domains') && both('blocked_domains')) fail(`${path}: Cannot specify both allowed_domains and blocked_domains`);
}

function checkThinking(thinking: unknown, maxTokens: number): void {
  if (!isObj(thinking) || thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget)) fail('thinking.enabled.budget_tokens: Field required');
  if (budget < 1024) fail('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (maxTokens <= budget)
    fail(
      '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
    );
}

interface Msg {
  role: 'user' | 'assistant';
  content: string | Obj[];
}

function checkMessageShape(m: unknown, i: number, count: number, ctx: Ctx): void {
  if (!isObj(m)) fail(`messages.${i}: Input should be a valid dictionary`);
  if (m.role === undefined) fail(`messages.${i}.role: Field required`);
  if (m.role !== 'user' && m.role !== 'assistant') fail(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  if (m.content === undefined) fail(`messages.${i}.content: Field required`);
  const isFinalAssistant = i === count - 1 && m.role === 'assistant';
  if (typeof m.content === 'string') {
    if (m.content === '' && !isFinalAssistant) {
      fail(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    if (m.content !== '' && m.content.trim() === '' && !isFinalAssistant) {
      fail('messages: text content blocks must contain non-whitespace text');
    }
    return;
  }
  if (!Array.isArray(m.content)) fail(`messages.${i}.content: Input should be a valid string or a valid list`);
  if (m.content.length === 0 && !isFinalAssistant) {
    fail(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
  }
  m.content.forEach((b, j) => checkBlock(b, `messages.${i}.content.${j}`, m.role as Msg['role'], ctx));
  const texts = (m.content as Obj[]).filter((b) => b.type === 'text');
  if (texts.length > 0 && texts.length === m.content.length && !isFinalAssistant && texts.every((b) => (b.text as string).trim() === '')) {
    fail('messages: text content blocks must contain non-whitespace text');
  }
}

function checkBlock(b: unknown, path: string, role: Msg['role'], ctx: Ctx): void {
  if (!isObj(b)) fail(`${path}: Input should be a valid dictionary`);
  if (typeof b.type !== 'string') fail(`${path}.type: Field required`);
  countCache(b, ctx);
  switch (b.type) {
    case 'text':
      if (typeof b.text !== 'string') fail(`${path}.text: Field required`);
      if (b.text === '') fail('messages: text content blocks must be non-empty');
      break;
    case 'tool_use':
      if (role !== 'assistant') fail(`${path}: \`tool_use\` blocks can only be in \`assistant\` messages`);
      if (typeof b.id !== 'string') fail(`${path}.id: Field required`);
      if (!TOOL_USE_ID.test(b.id)) fail(`${path}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (typeof b.name !== 'string') fail(`${path}.name: Field required`);
      if (b.input === undefined) fail(`${path}.input: Field required`);
      if (!isObj(b.input)) fail(`${path}.input: Input should be a valid dictionary`);
      break;
    case 'tool_result':
      if (role !== 'user') fail(`${path}: \`tool_result\` blocks can only be in \`user\` messages`);
      if (typeof b.tool_use_id !== 'string') fail(`${path}.tool_use_id: Field required`);
      if (b.is_error !== undefined && typeof b.is_error !== 'boolean') fail(`${path}.is_error: Input should be a valid boolean`);
      if (b.content !== undefined && typeof b.content !== 'string') {
        if (!Array.isArray(b.content)) fail(`${path}.content: Input should be a valid string or a valid list`);
        b.content.forEach((inner, k) => {
          const p = `${path}.content.${k}`;
          if (!isObj(inner)) fail(`${p}: Input should be a valid dictionary`);
          if (inner.type === 'tool_result' || inner.type === 'tool_use') fail(`${p}.type: Input should be 'text', 'image', 'search_result' or 'document'`);
          checkBlock(inner, p, role, ctx);
        });
      }
      break;
    case 'image':
      checkImage(b, path);
      break;
    default:
      break; // document, thinking, … pass through unchecked
  }
}

/** Merge consecutive same-role messages into turns, as the real API does, keeping original indices. */
interface Turn {
  role: Msg['role'];
  blocks: { block: Obj; message: number; index: number }[];
}

function turnsOf(messages: Msg[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const entries = blocks.map((block, index) => ({ block, message: i, index }));
    const last = turns.at(-1);
    if (last && last.role === m.role) last.blocks.push(...entries);
    else turns.push({ role: m.role, blocks: entries });
  });
  return turns;
}

function checkConversation(messages: Msg[]): void {
  if (messages[0]?.role !== 'user') fail('messages: first message must use the "user" role');

  const turns = turnsOf(messages);
  const seenToolUse = new Set<string>();
  turns.forEach((turn, t) => {
    if (turn.role === 'assistant') {
      const uses = turn.blocks.filter((e) => e.block.type === 'tool_use');
      for (const u of uses) {
        const id = u.block.id as string;
        if (seenToolUse.has(id)) fail(`messages.${u.message}.content.${u.index}: \`tool_use\` ids must be unique`);
        seenToolUse.add(id);
      }
      if (uses.length === 0) return;
      // The next turn must open with tool_result blocks answering every tool_use.
      const next = turns[t + 1];
      const leading = new Set<string>();
      for (const e of next?.blocks ?? []) {
        if (e.block.type !== 'tool_result') break;
        leading.add(e.block.tool_use_id as string);
      }
      const missing = uses.filter((u) => !leading.has(u.block.id as string));
      if (missing.length > 0) {
        const at = missing[0]?.message ?? 0;
        fail(
          `messages.${at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing
            .map((u) => u.block.id as string)
            .join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      return;
    }
    // user turn: every tool_result must answer a tool_use of the previous (assistant) turn, once.
    const prev = t > 0 ? turns[t - 1] : undefined;
    const offered = new Set((prev?.blocks ?? []).filter((e) => e.block.type === 'tool_use').map((e) => e.block.id as string));
    const answered = new Set<string>();
    for (const e of turn.blocks) {
      if (e.block.type !== 'tool_result') continue;
      const id = e.block.tool_use_id as string;
      if (!offered.has(id)) {
        fail(
          `messages.${e.message}.content.${e.index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      if (answered.has(id)) {
        fail(`messages.${e.message}.content.${e.index}: each \`tool_use\` must have a single \`tool_result\` block; found more than one for ${id}`);
      }
      answered.add(id);
    }
  });

  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    const tail = typeof last.content === 'string' ? last.content : ((last.content.at(-1)?.text as string | undefined) ?? '');
    const lastIsText = typeof last.content === 'string' || last.content.at(-1)?.type === 'text';
    if (lastIsText && tail !== '' && /\s$/.test(tail)) fail('messages: final assistant content cannot end with trailing whitespace');
  }
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** An image block as the real API checks it: a base64 or url source, a known type, at most 5 MB, bytes of that type. */
function checkImage(b: Obj, path: string): void {
  const source = b.source;
  if (!isObj(source)) fail(`${path}.source: Field required`);
  if (source.type === 'url') {
    if (typeof source.url !== 'string') fail(`${path}.source.url: Field required`);
    return;
  }
  if (source.type !== 'base64') fail(`${path}.source.type: Input should be 'base64' or 'url'`);
  if (typeof source.media_type !== 'string' || !IMAGE_TYPES.includes(source.media_type)) {
    fail(`${path}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
  }
  if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(source.data)) fail(`${path}.source.data: Input should be a valid base64 string`);
  const bytes = Buffer.from(source.data, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) fail(`${path}.source.base64: image exceeds 5 MB maximum: ${bytes.length} bytes > ${MAX_IMAGE_BYTES} bytes`);
  const actual = mediaTypeOf(bytes);
  if (actual !== source.media_type)
    fail(
      `${path}.source.base64.data: The image was specified using the ${source.media_type} media type, but the image appears to be a ${actual ?? 'unknown'} image`,
    );
}

function mediaTypeOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}
