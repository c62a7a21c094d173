// The runtime starts its in-sandbox network bridges (socat on 3128 for HTTP, 1080 for SOCKS) in the
// background and runs the command straight after, so a command's first connection could be refused
// (3 in 20 on this machine). This prefix holds the command until both listen. It reads how many TCP
// sockets are hashed in the sandbox's own network namespace (bwrap mounts a fresh /proc in it) from
// /proc/net/sockstat: a socket counts there once it listens (or connects), not when it is only
// bound, and a new namespace holds none but the bridges' until the command runs. It does not
// connect (no empty request reaches the proxy), nor read /proc/net/tcp, whose every read walks the
// kernel's whole TCP hash table, every namespace's: 5 ms per look here, where sockstat is a counter.
// Bash builtins only; a `sleep` only where no pty can be opened for the pause.

export interface BridgeWait {
  /** How many listening sockets mean every bridge is up. */
  bridges: number;
  /** Most time the command waits; past it the command runs anyway and sees the refusal itself. */
  limitMs: number;
  sockstat: string;
}

const DEFAULT_WAIT: BridgeWait = { bridges: 2, limitMs: 3000, sockstat: '/proc/net/sockstat' };
const STEP_MS = 1;

/** Bash lines that return once the bridges listen (or after the limit). The regex sits in a variable: bash matches a quoted one literally. */
export function bridgeWaitScript(wait: Partial<BridgeWait> = {}): string {
  const { bridges, limitMs, sockstat } = { ...DEFAULT_WAIT, ...wait };
  const tries = Math.ceil(limitMs / STEP_MS);
  // The pause times out reading a new pty's master side, which nothing writes: a builtin, where a
  // `sleep` is a process of its own (1.5 ms to start here, longer than the bridges take to come
  // up). Where no pty can be opened, the read fails at once and `sleep` pauses instead.
  const pause = `read -t 0.00${STEP_MS} __keel_x 2>/dev/null <> /dev/ptmx; (( $? > 128 )) || sleep 0.00${STEP_MS}`;
  return [
    `__keel_n=0; __keel_re='TCP: inuse ([0-9]+)'`,
    // `read -d ''` reads the whole (small) file without the fork a `$(<file)` costs; a file it
    // cannot open leaves the text empty, which ends the wait at once.
    `while __keel_stat=; IFS= read -r -d '' __keel_stat < '${sockstat}'; [[ $__keel_stat ]] && ! { [[ $__keel_stat =~ $__keel_re ]] && (( BASH_REMATCH[1] >= ${bridges} )); } && (( __keel_n++ < ${tries} )); do ${pause}; done`,
    `unset __keel_n __keel_stat __keel_re __keel_x BASH_REMATCH`,
  ].join('; ');
}

/** The command as the runtime gets it: the wait, then on its own line the command, unchanged. */
export function afterBridges(command: string, wait?: Partial<BridgeWait>): string {
  return `${bridgeWaitScript(wait)}\n${command}`;
}
