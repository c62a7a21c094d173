/**
 * Keel's own secrets: the model's key and token. A command, sandboxed or not, never sees them;
 * nor does the sandbox helper, which needs none of them.
 */
export const KEEL_SECRET_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'KEEL_WEB_TOKEN'];

/** The environment without Keel's secrets. */
export function hostOnlyEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of KEEL_SECRET_VARIABLES) delete copy[name];
  return copy;
}

/** Over process.env, as runInPty takes it: undefined removes a variable. */
export function withoutKeelSecrets(): Record<string, undefined> {
  return Object.fromEntries(KEEL_SECRET_VARIABLES.map((name) => [name, undefined]));
}
