import { createHmac, randomBytes } from 'node:crypto';
import { finalBlock, type ResolvedBlock, type ResolvedReply } from './render';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const WEB_SEARCH_TYPE = /^web_search_\d{8}$/;

/** The request's web_search tool, when it offers one. */
export function webSearchTool(body: unknown): Obj | undefined {
  const tools = isObj(body) && Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  return tools.find((t): t is Obj => isObj(t) && typeof t.type === 'string' && WEB_SEARCH_TYPE.test(t.type));
}

/** JSON with sorted keys and without cache_control: two blocks the API treats as the same compare equal. */
function canonical(value: unknown, top = true): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, false)).join(',')}]`;
  if (!isObj(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined && !(top && k === 'cache_control'))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], false)}`).join(',')}}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

const onDomain = (host: string, domains: unknown[]): boolean =>
  domains.some((d) => typeof d === 'string' && (host === d.toLowerCase() || host.endsWith(`.${d.toLowerCase()}`)));

/**
 * What the real API enforces about its server tool blocks, as a record of what this server
 * sent: a server_tool_use, its web_search_tool_result (encrypted_content and all) and every
 * web_search_result_location citation must come back exactly as they came, each result after
 * its call in the same assistant turn. A client that edits, drops or reorders them gets a 400.
 */
export class ServerToolLedger {
  private readonly secret = randomBytes(16);
  private readonly uses = new Map<string, string>();
  private readonly results = new Map<string, string>();
  private readonly citations = new Set<string>();

  private opaque(...parts: string[]): string {
    const mac = createHmac('sha256', this.secret).update(parts.join('\u0000')).digest('base64');
    return `Eq${mac}${mac.split('').reverse().join('')}`;
  }

  /**
   * Fills the encrypted fields the script left out, applies the request's tool options (results
   * outside allowed_domains or inside blocked_domains are dropped, searches past max_uses answer
   * max_uses_exceeded) and records what is sent. A reply that searches when the request offers no
   * web_search tool is a script error (the API never does that).
   */
  issue(reply: ResolvedReply, requestBody: unknown): void {
    const searches = reply.content.filter((b) => b.type === 'server_tool_use');
    const tool = webSearchTool(requestBody) ?? {};
    if (searches.length > 0 && !webSearchTool(requestBody))
      throw new Error('scripted server: the reply searches the web, but the request offers no web_search tool');
    const maxUses = typeof tool.max_uses === 'number' ? tool.max_uses : Infinity;
    const allowed = Array.isArray(tool.allowed_domains) ? (tool.allowed_domains as unknown[]) : undefined;
    const blocked = Array.isArray(tool.blocked_domains) ? (tool.blocked_domains as unknown[]) : undefined;
    const rank = new Map(searches.map((b, i) => [b.id, i + 1]));
    reply.content = reply.content.map((b): ResolvedBlock => {
      if (b.type === 'server_tool_use') return b;
      if (b.type === 'web_search_tool_result') {
        if ((rank.get(b.tool_use_id) ?? 0) > maxUses) return { ...b, content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } };
        if (!Array.isArray(b.content)) return b;
        const content = b.content
          .filter((r) => (!allowed || onDomain(hostOf(r.url), allowed)) && (!blocked || !onDomain(hostOf(r.url), blocked)))
          .map((r) => ({ ...r, encrypted_content: r.encrypted_content ?? this.opaque('content', r.url, r.title) }));
        return { ...b, content };
      }
      if (b.type === 'text' && b.citations) {
        return { ...b, citations: b.citations.map((c) => ({ ...c, encrypted_index: c.encrypted_index ?? this.opaque('index', c.url, c.cited_text) })) };
      }
      return b;
    });
    for (const b of reply.content) {
      const sent = finalBlock(b);
      if (b.type === 'server_tool_use') this.uses.set(b.id, canonical(sent));
      else if (b.type === 'web_search_tool_result') this.results.set(b.tool_use_id, canonical(sent));
      else if (b.type === 'text' && Array.isArray(sent.citations)) for (const c of sent.citations) this.citations.add(canonical(c));
    }
  }

  /** The 400 message the API would send for the request's server tool blocks, or null. */
  check(body: unknown): string | null {
    if (!isObj(body) || !Array.isArray(body.messages)) return null;
    const messages = body.messages as unknown[];
    let turn: { block: Obj; at: string }[] = [];
    for (let i = 0; i <= messages.length; i++) {
      const m = messages[i];
      const role = isObj(m) ? m.role : undefined;
      if (role !== 'assistant' && turn.length > 0) {
        const problem = this.checkTurn(turn);
        if (problem) return problem;
        turn = [];
      }
      if (!isObj(m) || !Array.isArray(m.content)) continue;
      const content = m.content as unknown[];
      for (let j = 0; j < content.length; j++) {
        const block = content[j];
        if (!isObj(block)) continue;
        const at = `messages.${i}.content.${j}`;
        if (role === 'assistant') turn.push({ block, at });
        else if (block.type === 'server_tool_use' || block.type === 'web_search_tool_result') {
          return `${at}: \`${String(block.type)}\` blocks can only be in \`assistant\` messages`;
        }
        if (block.type === 'text' && Array.isArray(block.citations)) {
          const k = (block.citations as unknown[]).findIndex((c) => isObj(c) && c.type === 'web_search_result_location' && !this.citations.has(canonical(c)));
          if (k >= 0) return `${at}.citations.${k}: Invalid \`encrypted_index\` in \`web_search_result_location\` citation`;
        }
      }
    }
    return null;
  }

  /** One assistant turn (consecutive assistant messages, as the API merges them). */
  private checkTurn(turn: { block: Obj; at: string }[]): string | null {
    const called = new Set<string>();
    for (let n = 0; n < turn.length; n++) {
      const { block, at } = turn[n]!;
      if (block.type === 'server_tool_use') {
        const id = String(block.id);
        if (this.uses.get(id) !== canonical(block)) {
          return `${at}: Invalid \`server_tool_use\` block: ${id} is not a block this API returned, or its name or input was changed`;
        }
        const answered = turn.slice(n + 1).some((e) => e.block.type === 'web_search_tool_result' && e.block.tool_use_id === id);
        if (this.results.has(id) && !answered) {
          return `${at}: \`server_tool_use\` id ${id} was found without a \`web_search_tool_result\` block after it in the same assistant turn`;
        }
        called.add(id);
      } else if (block.type === 'web_search_tool_result') {
        const id = String(block.tool_use_id);
        if (!called.has(id)) {
          return `${at}: \`web_search_tool_result\` block with tool_use_id ${id} does not follow a \`server_tool_use\` block with that id in the same assistant turn`;
        }
        if (this.results.get(id) !== canonical(block)) {
          return `${at}: Invalid \`encrypted_content\` in \`web_search_tool_result\` block: it does not match the results the API returned`;
        }
      }
    }
    return null;
  }
}
