import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/**
 * Which folders' `.mcp.json` the person trusted, and which content of it: a project's servers run
 * commands, so they start only after a yes, and a changed file asks again.
 * Kept in `<dataDir>/mcp-trust.json` as { "<real path of the folder>": "<sha256 of .mcp.json>" }.
 */
const TrustFileSchema = z.record(z.string(), z.string());

function trustPath(dataDir: string): string {
  return join(dataDir, 'mcp-trust.json');
}

function readTrust(dataDir: string): Record<string, string> {
  const path = trustPath(dataDir);
  if (!existsSync(path)) return {};
  try {
    const parsed = TrustFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    // A damaged trust file trusts nothing: the person is asked again, which is safe.
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function isProjectTrusted(dataDir: string, workspace: string, hash: string): boolean {
  return readTrust(dataDir)[workspace] === hash;
}

export function setProjectTrust(dataDir: string, workspace: string, hash: string | null): void {
  const trust = readTrust(dataDir);
  if (hash === null) delete trust[workspace];
  else trust[workspace] = hash;
  const path = trustPath(dataDir);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(trust, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}
