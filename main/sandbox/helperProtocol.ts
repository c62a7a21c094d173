import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

/** Parent → helper. Every request carries an id its answer repeats. */
export type HelperRequest =
  | { id: number; type: 'init'; config: SandboxRuntimeConfig }
  | { id: number; type: 'check' }
  | { id: number; type: 'wrap'; command: string; commandId: string; tmpDir: string }
  | { id: number; type: 'after'; commandId: string }
  | { id: number; type: 'hosts'; allowedHosts: string[] };

/** Helper → parent. */
export type HelperReply = { id: number; ok: true; wrapped?: string; sockets?: string[] } | { id: number; ok: false; error: string };
