import { NetworkPolicy, type Resolver } from '../network/networkPolicy';
import { addNetworkAllowed, listedNetworkHosts } from '../settings/networkSettings';
import type { WorkspaceSession } from '../session/workspaceSession';
import { networkRule } from '../approvals/networkApproval';
import { parseHostList } from '../network/hostNames';

/** The person's hosts as approval rules, so a listed host is never asked about. */
export function listedNetworkRules(dataDir: string, env: NodeJS.ProcessEnv): string[] {
  return parseHostList(listedNetworkHosts(dataDir, env)).hosts.map(networkRule);
}

/** The host of a `network:<host>` rule, or null for any other rule. */
export function hostOfNetworkRule(rule: string): string | null {
  return rule.startsWith('network:') ? rule.slice('network:'.length) : null;
}

/**
 * The network policy of one open session: the person's list from the settings and the
 * environment, the hosts allowed in this session (kept, like its other approval rules, in its
 * transcript), and "always" written to the settings file.
 */
export function sessionNetworkPolicy(
  session: WorkspaceSession,
  options: { dataDir: string; env: NodeJS.ProcessEnv; publicHostsFreely: () => boolean; log?: (message: string) => void; resolve?: Resolver | undefined },
): NetworkPolicy {
  return new NetworkPolicy({
    listed: () => listedNetworkHosts(options.dataDir, options.env),
    sessionHosts: {
      has: (host) => session.approvalRules.has(networkRule(host)),
      add: (host) => session.allowForSession(networkRule(host)),
      list: () => [...session.approvalRules].flatMap((rule) => (hostOfNetworkRule(rule) === null ? [] : [hostOfNetworkRule(rule)!])),
    },
    persist: (host) => {
      try {
        addNetworkAllowed(options.dataDir, host);
      } catch (error) {
        options.log?.(`warning: could not keep ${host} in the settings' network.allow: ${(error as Error).message}`);
      }
    },
    publicHostsFreely: options.publicHostsFreely,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
}
