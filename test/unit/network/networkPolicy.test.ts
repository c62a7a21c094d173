import { describe, expect, it } from 'vitest';
import { addressKind } from '../../../main/network/addressRanges';
import { canonicalHost, parseHostList } from '../../../main/network/hostNames';
import { NetworkPolicy, type ResolvedAddress } from '../../../main/network/networkPolicy';
import type { NetworkRefusal } from '../../../main/network/refusals';

// The network policy on its own: which addresses are private, how hosts are written, and what a
// check allows in each mode. DNS is a table here, so a public name can resolve to loopback.

const dns: Record<string, ResolvedAddress[]> = {
  'docs.example.com': [{ address: '93.184.216.34', family: 4 }],
  'rebind.example.com': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.com': [
    { address: '10.0.0.7', family: 4 },
    { address: '93.184.216.35', family: 4 },
  ],
  'mapped.example.com': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'intranet.corp': [{ address: '10.1.2.3', family: 4 }],
  localhost: [{ address: '127.0.0.1', family: 4 }],
  'liar.localhost': [{ address: '93.184.216.34', family: 4 }],
};

function policy(options: { listed?: string[]; freely?: boolean } = {}) {
  const persisted: string[] = [];
  const p = new NetworkPolicy({
    listed: () => options.listed ?? [],
    publicHostsFreely: () => options.freely ?? false,
    persist: (host) => persisted.push(host),
    resolve: async (host) => {
      const found = dns[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found;
    },
  });
  return { p, persisted };
}

async function refusalOf(p: NetworkPolicy, url: string, approved = true): Promise<NetworkRefusal['details']> {
  const checked = await p.check(url, { approved });
  if (checked.ok) throw new Error(`${url} was allowed (to ${checked.value.address})`);
  return (checked.error as NetworkRefusal).details;
}

describe('address ranges', () => {
  it('knows loopback, private, link-local, unspecified and reserved addresses, v4 and v6', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['::', 'unspecified'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['169.254.169.254', 'link_local'],
      ['fe80::1', 'link_local'],
      ['febf::1', 'link_local'],
      ['224.0.0.251', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['ff02::1', 'reserved'],
      ['93.184.216.34', 'public'],
      ['172.32.0.1', 'public'],
      ['172.15.255.255', 'public'],
      ['2606:4700::1111', 'public'],
    ];
    for (const [address, kind] of cases) expect(addressKind(address), address).toBe(kind);
  });

  it('judges an IPv4 address dressed as IPv6 as the IPv4 address it reaches', () => {
    expect(addressKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressKind('::ffff:7f00:1')).toBe('loopback');
    expect(addressKind('0:0:0:0:0:ffff:a00:1')).toBe('private');
    expect(addressKind('::ffff:169.254.169.254')).toBe('link_local');
    expect(addressKind('::127.0.0.1')).toBe('loopback');
    expect(addressKind('64:ff9b::10.0.0.1')).toBe('private');
    expect(addressKind('2002:7f00:1::')).toBe('loopback');
    expect(addressKind('2002:5db8:d822::1')).toBe('public');
    expect(addressKind('::ffff:93.184.216.34')).toBe('public');
  });

  it('is not fooled by long or odd spellings, and says null for what is not an address', () => {
    expect(addressKind('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('loopback');
    expect(addressKind('FE80::ABCD')).toBe('link_local');
    expect(addressKind('fe80::1%eth0')).toBe('link_local');
    for (const text of ['example.com', '127.1', '0177.0.0.1', '2130706433', '1.2.3.4.5', ':::1', '']) expect(addressKind(text), text).toBeNull();
  });
});

describe('host names', () => {
  it('writes every spelling of an address the one way the URL parser does', () => {
    expect(canonicalHost('2130706433')).toBe('127.0.0.1');
    expect(canonicalHost('0177.0.0.1')).toBe('127.0.0.1');
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('127.1')).toBe('127.0.0.1');
    expect(canonicalHost('::1')).toBe('::1');
    expect(canonicalHost('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(canonicalHost('Docs.Example.COM.')).toBe('docs.example.com');
    expect(canonicalHost('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('refuses what is not only a host', () => {
    for (const text of ['example.com:8080', 'http://example.com', 'example.com/path', 'user@example.com', 'ex ample.com', '']) {
      expect(canonicalHost(text), text).toBeNull();
    }
  });

  it('reads a comma- or space-separated list and names the entries that are not hosts', () => {
    expect(parseHostList(['example.com, 10.0.0.5  ::1,,', 'EXAMPLE.com.'])).toEqual({ hosts: ['example.com', '10.0.0.5', '::1'], invalid: [] });
    expect(parseHostList(['example.com:80,ok.org']).invalid).toEqual(['example.com:80']);
  });
});

describe('the policy', () => {
  it('refuses loopback however it is written, naming the host and how to allow it', async () => {
    const { p } = policy({ freely: true });
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f000001/',
      'http://127.1:8080/x',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://0/',
      'http://[::]/',
      'http://localhost/',
      'http://localhost./',
      'http://LOCALHOST../',
      'http://%31%32%37.0.0.1/',
    ]) {
      const details = await refusalOf(p, url);
      expect(details, url).toMatchObject({ reason: 'private_address' });
    }
    const checked = await p.check('http://0177.0.0.1/');
    expect(!checked.ok && checked.error.message).toContain('127.0.0.1');
    expect(!checked.ok && checked.error.message).toContain('KEEL_NETWORK_ALLOW');
  });

  it('judges the host after the user info, not the user info', async () => {
    const { p } = policy({ freely: true, listed: ['docs.example.com'] });
    expect(await refusalOf(p, 'http://docs.example.com@127.0.0.1/')).toMatchObject({ reason: 'bad_url', problem: 'credentials' });
    const details = await refusalOf(p, 'http://user:secret@docs.example.com/');
    expect(details).toMatchObject({ reason: 'bad_url', problem: 'credentials' });
    expect(JSON.stringify(details)).not.toContain('secret');
  });

  it('refuses a public name that resolves to a private address, and names both', async () => {
    const { p } = policy({ freely: true });
    expect(await refusalOf(p, 'https://rebind.example.com/')).toEqual({
      reason: 'private_address',
      host: 'rebind.example.com',
      address: '127.0.0.1',
      kind: 'loopback',
    });
    expect(await refusalOf(p, 'https://mapped.example.com/')).toMatchObject({ reason: 'private_address', kind: 'link_local' });
    expect(await refusalOf(p, 'http://intranet.corp/')).toMatchObject({ host: 'intranet.corp', address: '10.1.2.3', kind: 'private' });
  });

  it('connects to the checked public address of a name that also gives a private one', async () => {
    const { p } = policy({ freely: true });
    const checked = await p.check('https://mixed.example.com/');
    expect(checked.ok && checked.value.address).toBe('93.184.216.35');
  });

  it('keeps localhost on this machine whatever the resolver answers', async () => {
    const { p } = policy({ freely: true });
    expect(await refusalOf(p, 'http://liar.localhost/')).toMatchObject({ reason: 'private_address', kind: 'loopback' });
  });

  it('reaches a private host the person listed, by name or by address, in any spelling', async () => {
    expect((await policy({ listed: ['intranet.corp'] }).p.check('http://intranet.corp/')).ok).toBe(true);
    expect((await policy({ listed: ['127.0.0.1'] }).p.check('http://2130706433:9000/')).ok).toBe(true);
    expect((await policy({ listed: ['127.0.0.1'] }).p.check('http://localhost/', { approved: true })).ok).toBe(true);
    expect((await policy({ listed: ['::1'] }).p.check('http://[0::1]/')).ok).toBe(true);
    // Listing one loopback address does not list the others.
    expect(await refusalOf(policy({ listed: ['127.0.0.1'] }).p, 'http://127.0.0.2/')).toMatchObject({ reason: 'private_address' });
  });

  it('refuses private addresses even for a host allowed this session (only the list reaches them)', async () => {
    const { p } = policy({ freely: true });
    p.allowForSession('intranet.corp');
    expect(await refusalOf(p, 'http://intranet.corp/')).toMatchObject({ reason: 'private_address' });
  });

  it('in a mode that asks, reaches a new public host only once allowed', async () => {
    const { p, persisted } = policy({ freely: false });
    expect(await refusalOf(p, 'https://docs.example.com/a', false)).toEqual({ reason: 'not_allowed', host: 'docs.example.com' });
    expect((await p.check('https://docs.example.com/a', { approved: true })).ok).toBe(true);
    p.allowForSession('docs.example.com');
    const checked = await p.check('https://docs.example.com/a');
    expect(checked.ok && checked.value).toMatchObject({ host: 'docs.example.com', address: '93.184.216.34', family: 4 });
    p.allowAlways('other.example.com');
    expect(persisted).toEqual(['other.example.com']);
    expect(p.isAllowed('other.example.com')).toBe(true);
  });

  it('in Full auto reaches public hosts without asking', async () => {
    const { p } = policy({ freely: true });
    expect((await p.check('https://docs.example.com/')).ok).toBe(true);
  });

  it('refuses other schemes and broken URLs, and says a name that does not resolve', async () => {
    const { p } = policy({ freely: true });
    for (const url of ['file:///etc/passwd', 'ftp://docs.example.com/', 'gopher://x/', 'data:text/html,hi', 'javascript:alert(1)']) {
      expect(await refusalOf(p, url), url).toMatchObject({ reason: 'bad_url', problem: 'scheme' });
    }
    expect(await refusalOf(p, 'not a url')).toMatchObject({ reason: 'bad_url', problem: 'invalid' });
    expect(await refusalOf(p, 'http://[fe80::1%25eth0]/')).toMatchObject({ reason: 'bad_url', problem: 'invalid' });
    const missing = await p.check('https://nowhere.invalid/');
    expect(!missing.ok && missing.error).toMatchObject({ code: 'network_error', details: { host: 'nowhere.invalid', error: 'ENOTFOUND' } });
  });
});
