export class UsageError extends Error {}

export interface FlagSpec {
  /** Flags that take a value. */
  values: readonly string[];
  /** Flags that stand alone. */
  switches: readonly string[];
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  positional: string[];
}

/** Small, strict flag parsing: an unknown flag or a missing value is a usage error, never ignored. */
export function parseArgs(args: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (spec.switches.includes(name)) {
      if (inline !== undefined) throw new UsageError(`${name} takes no value.`);
      flags.set(name, true);
    } else if (spec.values.includes(name)) {
      const value = inline ?? args[i + 1];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${name} needs a value.`);
      if (inline === undefined) i++;
      flags.set(name, value);
    } else {
      throw new UsageError(`Unknown option "${name}".`);
    }
  }
  return { flags, positional };
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  return port;
}
