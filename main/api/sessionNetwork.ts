import { NetworkPolicy } from '../network/networkPolicy';
import { addNetworkAllowed, listedNetworkHosts } from '../settings/networkSettings';
import type { WorkspaceSession } from '../session/workspaceSession';

/** The session rule that allows a host for the session (kept with the session's other approval rules). */
export const networkRule = (host: string): string => `network:${host}`;

/**
 * The network policy of one open session: the person's list from the settings and the
 * environment, the hosts allowed in this session (kept, like its other approval rules, in its
 * transcript), and "always" written to the settings file.
 */
export function sessionNetworkPolicy(
  session: WorkspaceSession,
  options: { dataDir: string; env: NodeJS.ProcessEnv; publicHostsFreely: () => boolean; log?: (message: string) => void },
): NetworkPolicy {
  return new NetworkPolicy({
    listed: () => listedNetworkHosts(options.dataDir, options.env),
    sessionHosts: { has: (host) => session.approvalRules.has(networkRule(host)), add: (host) => session.allowForSession(networkRule(host)) },
    persist: (host) => {
      try {
        addNetworkAllowed(options.dataDir, host);
      } catch (error) {
        options.log?.(`warning: could not keep ${host} in the settings' network.allow: ${(error as Error).message}`);
      }
    },
    publicHostsFreely: options.publicHostsFreely,
  });
}
