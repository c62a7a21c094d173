import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';

export interface PolicyInput {
  workspace: string;
  /** Writable besides the workspace: the sessions' temp folders and Keel's tool caches. */
  writable: readonly string[];
  /** Never readable (see secretPaths). */
  secrets: readonly string[];
  /** Hosts the network policy allows now; everything else is refused without asking. */
  allowedHosts: readonly string[];
}

/**
 * The sandbox's rules for one workspace. Writes: the workspace and `writable` only; the runtime adds
 * its own mandatory denials (.git/hooks, .git/config, shell start-up files) rooted at the helper's
 * working directory, which is why the helper runs in the workspace. Reads: everything but secrets.
 * Network: only allowedHosts, and `strictAllowlist` so the proxy never waits for an answer the
 * person is not there to give.
 */
export function sandboxPolicy(input: PolicyInput): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [...input.allowedHosts], deniedDomains: [], strictAllowlist: true },
    filesystem: {
      denyRead: [...input.secrets],
      allowWrite: [input.workspace, ...input.writable],
      denyWrite: [],
    },
  };
}
