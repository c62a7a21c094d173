import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceSandbox } from '../../main/sandbox/workspaceSandbox';

/**
 * Whether the OS sandbox works on this machine, checked as Keel checks it (a real wrapped `true`).
 * Where it does not, the tests that need it skip, and say so with the reason: never silently.
 */
export async function sandboxWorksHere(skipping: string): Promise<boolean> {
  const probe = new WorkspaceSandbox({ workspace: tmpdir(), dataDir: join(tmpdir(), 'keel-sandbox-probe'), setting: 'auto' });
  const status = await probe.start();
  await probe.dispose();
  if (status.state === 'on') return true;
  console.warn(`SKIPPED: ${skipping}: no sandbox works here (${JSON.stringify(status)})`);
  return false;
}
