// The runtime starts its in-sandbox network bridges (socat on 3128 for HTTP, 1080 for SOCKS) in the
// background and runs the command straight after, so a command's first connection could be refused
// (3 in 20 on this machine). This prefix holds the command until both ports listen. It reads the
// sandbox's own /proc/net/tcp (bwrap mounts a fresh /proc in the new network namespace) instead of
// connecting, so no empty request reaches the proxy. Bash builtins only, except one short sleep.

export interface BridgeWait {
  ports: readonly number[];
  /** Most time the command waits; past it the command runs anyway and sees the refusal itself. */
  limitMs: number;
  tcpTable: string;
}

const DEFAULT_WAIT: BridgeWait = { ports: [3128, 1080], limitMs: 3000, tcpTable: '/proc/net/tcp' };
const STEP_MS = 2;

/** A /proc/net/tcp line of a socket listening on `port`: local port in hex, any remote, state 0A. */
const listening = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')} [0-9A-F]+:0000 0A`;

/** Bash lines that return once every port listens (or after the limit). Regexes sit in variables: bash matches quoted ones literally. */
export function bridgeWaitScript(wait: Partial<BridgeWait> = {}): string {
  const { ports, limitMs, tcpTable } = { ...DEFAULT_WAIT, ...wait };
  const tries = Math.ceil(limitMs / STEP_MS);
  const patterns = ports.map((p, i) => `__keel_re${i}='${listening(p)}'`);
  const test = ports.map((_p, i) => `[[ $__keel_tcp =~ $__keel_re${i} ]]`).join(' && ');
  const names = ['__keel_n', '__keel_tcp', ...ports.map((_p, i) => `__keel_re${i}`)].join(' ');
  return [
    `__keel_n=0; ${patterns.join('; ')}`,
    `while __keel_tcp=$(<'${tcpTable}') && ! { ${test}; } && (( __keel_n++ < ${tries} )); do sleep 0.00${STEP_MS}; done`,
    `unset ${names}`,
  ].join('; ');
}

/** The command as the runtime gets it: the wait, then on its own line the command, unchanged. */
export function afterBridges(command: string, wait?: Partial<BridgeWait>): string {
  return `${bridgeWaitScript(wait)}\n${command}`;
}
