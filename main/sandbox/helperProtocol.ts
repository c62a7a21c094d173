import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

/** Parent → helper. Every request carries an id its answer repeats. */
export type HelperRequest =
  | { id: number; type: 'init'; config: SandboxRuntimeConfig }
  | { id: number; type: 'check' }
  /** `allowedHosts`: the list as it is now (the person may have listed a host since the last command). */
  | { id: number; type: 'wrap'; command: string; commandId: string; tmpDir: string; allowedHosts: string[] }
  | { id: number; type: 'after'; commandId: string }
  | { id: number; type: 'answer'; askId: number; allow: boolean }
  /** Take the proxies, bridges and placeholders down, then exit. */
  | { id: number; type: 'shutdown' };

/** Helper → parent: the answer to a request. */
/** `warnings`: what the check found the sandbox cannot restrict here (it still runs). */
export type HelperReply = { id: number; ok: true; wrapped?: string; sockets?: string[]; warnings?: string[] } | { id: number; ok: false; error: string };

/** Helper → parent, unasked: a command wants a host no list covers; Keel's network policy decides. */
export interface HelperAsk {
  type: 'ask';
  askId: number;
  host: string;
  port: number | undefined;
}

export type HelperMessage = HelperReply | HelperAsk;
