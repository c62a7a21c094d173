import { parseHostList } from '../network/hostNames';
import { readSettingsFile, writeSettingsFile } from './modelSettings';

/** KEEL_NETWORK_ALLOW: host names or addresses, comma-separated. */
export function networkAllowFromEnv(env: NodeJS.ProcessEnv): string[] {
  return parseHostList([env.KEEL_NETWORK_ALLOW ?? '']).hosts;
}

/**
 * Every host the person listed, read fresh at each check so an edit applies to the next request.
 * A settings file that cannot be read lists nothing (the settings view reports it).
 */
export function listedNetworkHosts(dataDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  let file: string[];
  try {
    file = readSettingsFile(dataDir).network?.allow ?? [];
  } catch {
    file = [];
  }
  return [...file, ...networkAllowFromEnv(env)];
}

/** "Allow always" for a host: added to the settings file's `network.allow`. */
export function addNetworkAllowed(dataDir: string, host: string): void {
  const file = readSettingsFile(dataDir);
  const allow = file.network?.allow ?? [];
  if (allow.includes(host)) return;
  writeSettingsFile(dataDir, { ...file, network: { ...file.network, allow: [...allow, host] } });
}
