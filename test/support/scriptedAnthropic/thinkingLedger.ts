import { createHmac, randomBytes } from 'node:crypto';
import type { ResolvedReply } from './render';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the real API enforces about thinking, as a record of what this server sent: every
 * thinking block carries a signature the server made (or the script named), a redacted block
 * carries data the server sent, and a turn the server opened with thinking must come back opening
 * with it. A client that edits, drops or reorders thinking gets the API's 400.
 */
export class ThinkingLedger {
  private readonly secret = randomBytes(16);
  private readonly signed = new Set<string>();
  private readonly redacted = new Set<string>();
  /** tool_use ids of turns that began with thinking. */
  private readonly thinkingTurns = new Set<string>();

  sign(thinking: string): string {
    return createHmac('sha256', this.secret).update(thinking).digest('base64');
  }

  /** Signs the reply's unsigned thinking and records what it carries. */
  issue(reply: ResolvedReply): void {
    for (const block of reply.content) {
      if (block.type === 'thinking') {
        block.signature ??= this.sign(block.thinking);
        this.signed.add(`${block.thinking}\u0000${block.signature}`);
      } else if (block.type === 'redacted_thinking') this.redacted.add(block.data);
    }
    const first = reply.content[0]?.type;
    if (first === 'thinking' || first === 'redacted_thinking') {
      for (const block of reply.content) if (block.type === 'tool_use') this.thinkingTurns.add(block.id);
    }
  }

  /** The 400 message the API would send for the request's thinking blocks, or null. */
  check(body: unknown): string | null {
    if (!isObj(body) || !Array.isArray(body.messages)) return null;
    const messages = body.messages as unknown[];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (!isObj(m) || !Array.isArray(m.content)) continue;
      for (let j = 0; j < m.content.length; j++) {
        const b = m.content[j] as unknown;
        if (!isObj(b)) continue;
        if (b.type === 'thinking' && !this.signed.has(`${String(b.thinking)}\u0000${String(b.signature)}`)) {
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
        }
        if (b.type === 'redacted_thinking' && !this.redacted.has(String(b.data))) {
          return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`;
        }
      }
    }
    return this.checkContinuedTurn(body, messages);
  }

  /** The assistant turn that the request's tool results continue must open with its thinking. */
  private checkContinuedTurn(body: Obj, messages: unknown[]): string | null {
    const mode = isObj(body.thinking) ? body.thinking.type : undefined;
    if (mode !== 'enabled' && mode !== 'adaptive') return null;
    const last = messages.length - 1;
    const final = messages[last];
    if (!isObj(final) || final.role !== 'user' || !Array.isArray(final.content) || !isObj(final.content[0]) || final.content[0].type !== 'tool_result')
      return null;
    // Consecutive assistant messages form one turn, as the API merges them.
    let start = last - 1;
    while (start > 0 && isObj(messages[start - 1]) && (messages[start - 1] as Obj).role === 'assistant') start--;
    const turn = messages.slice(start, last).flatMap((m) => (isObj(m) && Array.isArray(m.content) ? (m.content as unknown[]) : [])) as Obj[];
    if (turn.length === 0) return null;
    const opens = turn[0]?.type === 'thinking' || turn[0]?.type === 'redacted_thinking';
    const owed = mode === 'enabled' || turn.some((b) => b.type === 'tool_use' && this.thinkingTurns.has(String(b.id)));
    if (opens || !owed) return null;
    return `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(turn[0]?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
  }
}
