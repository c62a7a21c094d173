import { isIPv4, isIPv6 } from 'node:net';

/**
 * What an address reaches. Anything but `public` is reached only when the person lists it: a page
 * or a prompt must not turn the agent into a way into this machine or the network it sits on.
 */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'unspecified' | 'reserved';

type Range4 = readonly [base: string, bits: number, kind: Exclude<AddressKind, 'public'>];

const IPV4_RANGES: readonly Range4[] = [
  // 0.0.0.0/8 is "this host on this network": connecting to 0.0.0.0 reaches this machine.
  ['0.0.0.0', 8, 'unspecified'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  // Carrier-grade NAT: the provider's network, not the internet.
  ['100.64.0.0', 10, 'private'],
  // Cloud metadata services (169.254.169.254) live here.
  ['169.254.0.0', 16, 'link_local'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  // Multicast, the reserved block and the broadcast address.
  ['224.0.0.0', 4, 'reserved'],
  ['240.0.0.0', 4, 'reserved'],
];

/** A dotted IPv4 address as a 32-bit number, or null when it is not exactly four decimal parts. */
export function ipv4Number(address: string): number | null {
  if (!isIPv4(address)) return null;
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inRange4(value: number, base: string, bits: number): boolean {
  const size = 2 ** (32 - bits);
  const start = ipv4Number(base)!;
  return value >= start && value < start + size;
}

function kindOf4(value: number): AddressKind {
  for (const [base, bits, kind] of IPV4_RANGES) if (inRange4(value, base, bits)) return kind;
  return 'public';
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail is read as the last two), or null. */
export function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const v4 = ipv4Number(tail[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -tail[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function kindOf6(g: number[]): AddressKind {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const embedded = (hi: number, lo: number) => kindOf4(hi * 65536 + lo);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(7) && g7 === 0) return 'unspecified';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  // An IPv4 address dressed as IPv6 is judged as the IPv4 address it reaches:
  // mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d).
  if (zeroUpTo(5) && g5 === 0xffff) return embedded(g6, g7);
  if (zeroUpTo(6)) return embedded(g6, g7);
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private';
  // 6to4 (2002:a.b.c.d::/48) carries its IPv4 address in the second and third groups.
  if (g0 === 0x2002) return embedded(g1, g2);
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link_local';
  // Site-local, deprecated but still routed inside some networks.
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'reserved';
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved';
  return 'public';
}

/** What an IP address (v4 dotted or v6, brackets allowed) reaches; null when it is not an address. */
export function addressKind(address: string): AddressKind | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = ipv4Number(bare);
  if (v4 !== null) return kindOf4(v4);
  const v6 = ipv6Groups(bare);
  return v6 === null ? null : kindOf6(v6);
}
