import { AllowList } from './allow-list';
import { ResolvedAddress, SsrfGuard, SsrfPolicy, UrlRefusedError } from './ssrf-guard';

/** A resolver from a fixed table: the tests never ask a real DNS server. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

const names = {
  'hooks.example.com': ['93.184.215.14'],
  localhost: ['127.0.0.1', '::1'],
  'internal.example.com': ['10.1.2.3'],
  'rebind.example.com': ['192.168.0.10'],
  'mixed.example.com': ['10.0.0.7', '93.184.215.15'],
  'metadata.example.com': ['169.254.169.254'],
  'v6only.example.com': ['2606:4700:4700::1111'],
};

const policy = (overrides: Partial<SsrfPolicy> = {}): SsrfPolicy => ({
  allowHttp: false,
  allowPorts: [],
  allowList: AllowList.EMPTY,
  ...overrides,
});

async function reasonFor(guard: SsrfGuard, url: string): Promise<string> {
  try {
    await guard.check(url);
  } catch (error) {
    if (error instanceof UrlRefusedError) return error.reason;
    throw error;
  }
  throw new Error(`${url} was not refused`);
}

describe('SsrfGuard', () => {
  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1 is a loopback address (127.0.0.0/8)'],
    ['https://10.0.0.1/hook', '10.0.0.1 is a private address (10.0.0.0/8)'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
    ['https://[::1]/hook', '::1 is a loopback address (::1/128)'],
    ['https://[fd00::1]/hook', 'fd00::1 is a unique-local address (fc00::/7)'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254 is a cloud metadata address'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is an IPv4-mapped loopback address (127.0.0.0/8)'],
    ['https://2130706433/', '127.0.0.1 is a loopback address (127.0.0.0/8)'],
    ['https://0x7f.1/', '127.0.0.1 is a loopback address (127.0.0.0/8)'],
    ['https://100.64.1.1/', '100.64.1.1 is a carrier-grade NAT address (100.64.0.0/10)'],
    ['https://224.0.0.1/', '224.0.0.1 is a multicast address (224.0.0.0/4)'],
    ['https://0.0.0.0/', '0.0.0.0 is an unspecified address (0.0.0.0/8)'],
    ['https://localhost/hook', 'localhost resolves to 127.0.0.1, a loopback address (127.0.0.0/8)'],
    ['https://internal.example.com/', 'internal.example.com resolves to 10.1.2.3, a private address (10.0.0.0/8)'],
    ['https://metadata.example.com/', 'metadata.example.com resolves to 169.254.169.254, a cloud metadata address'],
  ])('refuses %s: %s', async (url, reason) => {
    const guard = new SsrfGuard(policy({ allowHttp: true }), fakeResolver(names).resolve);
    expect(await reasonFor(guard, url)).toBe(
      `${reason}; such addresses are reachable only through OUTBOUND_WEBHOOKS_ALLOW_HOSTS`,
    );
  });

  it.each([
    ['http://hooks.example.com/', 'only https URLs are allowed (http needs OUTBOUND_WEBHOOKS_ALLOW_HTTP=true)'],
    ['http://localhost/', 'only https URLs are allowed (http needs OUTBOUND_WEBHOOKS_ALLOW_HTTP=true)'],
    ['ftp://hooks.example.com/', 'the scheme ftp is not allowed; use https'],
    ['file:///etc/passwd', 'the scheme file is not allowed; use https'],
    [
      'https://hooks.example.com:8443/',
      'port 8443 is not allowed (only 443, or a port listed in OUTBOUND_WEBHOOKS_ALLOW_PORTS)',
    ],
    [
      'https://10.0.0.1:6379/',
      'port 6379 is not allowed (only 443, or a port listed in OUTBOUND_WEBHOOKS_ALLOW_PORTS)',
    ],
    ['https://user:secret@hooks.example.com/', 'credentials in the URL are not allowed'],
    ['https://nowhere.example.com/', 'its host nowhere.example.com could not be resolved (ENOTFOUND)'],
    ['not a url', 'it is not a valid absolute URL'],
  ])('refuses %s: %s', async (url, reason) => {
    const guard = new SsrfGuard(policy(), fakeResolver(names).resolve);
    expect(await reasonFor(guard, url)).toBe(reason);
  });

  it('accepts a public host and pins the address it checked, with one lookup', async () => {
    const resolver = fakeResolver(names);
    const guard = new SsrfGuard(policy(), resolver.resolve);
    const checked = await guard.check('https://Hooks.Example.com/orders?x=1');
    expect(checked).toMatchObject({
      hostname: 'hooks.example.com',
      port: 443,
      address: '93.184.215.14',
      family: 4,
      allowListed: false,
    });
    expect(checked.url.pathname + checked.url.search).toBe('/orders?x=1');
    expect(resolver.asked).toEqual(['hooks.example.com']);
    expect(await guard.check('https://v6only.example.com/')).toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });

  it('connects a name with public and private answers only to a public one', async () => {
    const guard = new SsrfGuard(policy(), fakeResolver(names).resolve);
    expect(await guard.check('https://mixed.example.com/')).toMatchObject({ address: '93.184.215.15' });
  });

  it('lets the allow-list through, by address, range or name, on any port; http still needs its own switch', async () => {
    const allowList = AllowList.parse(['127.0.0.1', '10.1.0.0/16', 'localhost']);
    const guard = new SsrfGuard(policy({ allowList }), fakeResolver(names).resolve);
    expect(await guard.check('https://127.0.0.1:34567/hook')).toMatchObject({
      address: '127.0.0.1',
      port: 34567,
      allowListed: true,
    });
    expect(await guard.check('https://internal.example.com/')).toMatchObject({
      address: '10.1.2.3',
      allowListed: true,
    });
    expect(await guard.check('https://localhost:8080/')).toMatchObject({ address: '127.0.0.1', allowListed: true });
    expect(await reasonFor(guard, 'https://10.0.0.1/')).toContain('10.0.0.1 is a private address');
    expect(await reasonFor(guard, 'https://rebind.example.com/')).toContain(
      'resolves to 192.168.0.10, a private address',
    );
    expect(await reasonFor(guard, 'http://127.0.0.1:34567/')).toContain('only https URLs are allowed');
  });

  it('allows extra ports only where configured', async () => {
    const guard = new SsrfGuard(policy({ allowPorts: [8443] }), fakeResolver(names).resolve);
    expect(await guard.check('https://hooks.example.com:8443/')).toMatchObject({ port: 8443 });
    expect(await reasonFor(guard, 'https://hooks.example.com:8444/')).toContain('port 8444 is not allowed');
  });

  it('does not resolve an allow-listed name when an endpoint is created, and resolves everything else', async () => {
    const resolver = fakeResolver(names);
    const guard = new SsrfGuard(policy({ allowList: AllowList.parse(['hooks.test']) }), resolver.resolve);
    await expect(guard.checkNew('https://hooks.test/a')).resolves.toBeUndefined();
    await expect(guard.checkNew('https://hooks.example.com/a')).resolves.toBeUndefined();
    await expect(guard.checkNew('https://localhost/a')).rejects.toThrow(UrlRefusedError);
    expect(resolver.asked).toEqual(['hooks.example.com', 'localhost']);
  });

  it('rejects an allow-list entry that is neither a name, an address nor a range', () => {
    expect(() => AllowList.parse(['127.0.0.1', 'exa mple'])).toThrow('"exa mple" is neither a host name');
    expect(() => AllowList.parse(['10.0.0.0/33'])).toThrow('"10.0.0.0/33"');
  });
});
