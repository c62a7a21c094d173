import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used instead of when this module loads. A search worker
 * imports the regex engine and the encoding tables but most searches never touch them: loaded up
 * front they were two thirds of the CPU a worker's start costs, paid by the first search of a session.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
