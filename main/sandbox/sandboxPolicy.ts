import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

export interface PolicyInput {
  workspace: string;
  /** Writable besides the workspace: the sessions' temp folders and Keel's tool caches. */
  writable: readonly string[];
  /** Never writable, though inside what is (a linked worktree's pointers to its repository). */
  readOnly?: readonly string[];
  /** Never readable (see secretPaths). */
  secrets: readonly string[];
  /** Hosts the person listed (addresses too): reached without asking, private ones included. */
  allowedHosts: readonly string[];
}

/**
 * The sandbox's rules for one workspace. Writes: the workspace and `writable` only; the runtime adds
 * its own mandatory denials (.git/hooks, .git/config, shell start-up files) rooted at the helper's
 * working directory, which is why the helper runs in the workspace. Reads: everything but secrets.
 * Network: listed hosts; for any other the proxy asks Keel, whose network policy answers (hosts
 * allowed for the session). A name that resolves to a private address stays refused unless that
 * address itself is listed (the runtime's resolved-address check).
 */
export function sandboxPolicy(input: PolicyInput): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [...input.allowedHosts], deniedDomains: [] },
    filesystem: {
      denyRead: [...input.secrets],
      allowWrite: [input.workspace, ...input.writable],
      denyWrite: [...(input.readOnly ?? [])],
    },
  };
}
