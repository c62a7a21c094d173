import type { ScriptedAgent, ScriptedAgentOptions, ScriptedRequest, Step } from './types';
import { textOf } from './steps';

/**
 * One agent the server plays: its own script, request log and optional delay. A request belongs to
 * it when the conversation's first user message matches `firstMessage`, which is how a main agent and
 * its helpers (each starting from fresh instructions) are told apart on one endpoint.
 */
export class AgentScript implements ScriptedAgent {
  readonly name: string;
  readonly requests: ScriptedRequest[] = [];
  readonly delayMs: number;
  private readonly queue: Step[];
  private readonly matcher: (first: string) => boolean;
  consumed = 0;

  constructor(options: ScriptedAgentOptions) {
    this.name = options.name;
    this.queue = [...options.script];
    this.delayMs = options.delayMs ?? 0;
    const m = options.firstMessage;
    this.matcher = typeof m === 'string' ? (first) => first.includes(m) : m instanceof RegExp ? (first) => m.test(first) : m;
  }

  matches(first: string): boolean {
    return this.matcher(first);
  }

  get remaining(): number {
    return this.queue.length;
  }

  push(...steps: Step[]): void {
    this.queue.push(...steps);
  }

  next(): Step | undefined {
    return this.queue.shift();
  }
}

/** The text of the conversation's first user message (what tells agents apart). */
export function firstUserText(request: ScriptedRequest): string {
  const messages = Array.isArray(request.body.messages) ? request.body.messages : [];
  const first = messages.find((m) => m.role === 'user');
  return first === undefined ? '' : textOf(first);
}

/**
 * Which agent a request belongs to. Strict like the rest of the server: a request two agents claim
 * is a script bug (the test could not tell whom it is exercising), so it is reported, not guessed.
 */
export function routeAgent(agents: AgentScript[], request: ScriptedRequest): { agent?: AgentScript; problem?: string } {
  if (agents.length === 0) return {};
  const first = firstUserText(request);
  const claimed = agents.filter((a) => a.matches(first));
  if (claimed.length > 1) {
    return {
      problem: `scripted server: request ${request.index} matches agents ${claimed.map((a) => JSON.stringify(a.name)).join(' and ')} (first message ${JSON.stringify(first.slice(0, 80))})`,
    };
  }
  return claimed[0] === undefined ? {} : { agent: claimed[0] };
}

/** Throws on two agents with one name: `server.agent(name)` must be unambiguous. */
export function makeAgents(options: ScriptedAgentOptions[] | undefined): AgentScript[] {
  const agents = (options ?? []).map((o) => new AgentScript(o));
  const names = new Set<string>();
  for (const a of agents) {
    if (names.has(a.name)) throw new Error(`scripted server: two agents are named ${JSON.stringify(a.name)}`);
    names.add(a.name);
  }
  return agents;
}
