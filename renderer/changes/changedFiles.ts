import type { TaskChanges } from '../../common/contract';

/**
 * How many files the agent's changes still touch, each counted once: a file two tasks edited is
 * one file for the Changes button's badge and name, not two.
 */
export function changedFileCount(tasks: readonly TaskChanges[] | null | undefined): number {
  const paths = new Set<string>();
  for (const task of tasks ?? []) for (const file of task.files) if (file.state === 'applied') paths.add(file.path);
  return paths.size;
}
