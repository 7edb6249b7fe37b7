import { parseIPv6 } from './ip-address';
import { blockedAddress, describeBlocked } from './ip-ranges';

describe('blockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback', '127.0.0.0/8'],
    ['127.255.0.9', 'loopback', '127.0.0.0/8'],
    ['10.0.0.1', 'private', '10.0.0.0/8'],
    ['172.16.0.1', 'private', '172.16.0.0/12'],
    ['172.31.255.255', 'private', '172.16.0.0/12'],
    ['192.168.1.1', 'private', '192.168.0.0/16'],
    ['169.254.169.254', 'cloud metadata', '169.254.169.254'],
    ['169.254.170.2', 'cloud metadata', '169.254.170.2'],
    ['100.100.100.200', 'cloud metadata', '100.100.100.200'],
    ['192.0.0.192', 'cloud metadata', '192.0.0.192'],
    ['169.254.1.1', 'link-local', '169.254.0.0/16'],
    ['100.64.0.1', 'carrier-grade NAT', '100.64.0.0/10'],
    ['100.127.255.254', 'carrier-grade NAT', '100.64.0.0/10'],
    ['224.0.0.1', 'multicast', '224.0.0.0/4'],
    ['239.255.255.250', 'multicast', '224.0.0.0/4'],
    ['0.0.0.0', 'unspecified', '0.0.0.0/8'],
    ['255.255.255.255', 'broadcast', '255.255.255.255/32'],
    ['240.0.0.1', 'reserved', '240.0.0.0/4'],
    ['198.18.0.1', 'benchmarking', '198.18.0.0/15'],
    ['192.0.2.10', 'documentation', '192.0.2.0/24'],
    ['::1', 'loopback', '::1/128'],
    ['::', 'unspecified', '::/128'],
    ['fd00::1', 'unique-local', 'fc00::/7'],
    ['fc12:3456::1', 'unique-local', 'fc00::/7'],
    ['fd00:ec2::254', 'cloud metadata', 'fd00:ec2::254'],
    ['fe80::1', 'link-local', 'fe80::/10'],
    ['ff02::1', 'multicast', 'ff00::/8'],
    ['2001:db8::1', 'documentation', '2001:db8::/32'],
  ])('%s is refused as %s', (address, kind, range) => {
    expect(blockedAddress(address)).toEqual({ address, kind, range });
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped', 'loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped', 'loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped', 'private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped', 'cloud metadata'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated', 'cloud metadata'],
    ['64:ff9b::a00:1', 'NAT64', 'private'],
    ['2002:c0a8:0101::1', '6to4', 'private'],
    ['::127.0.0.1', 'IPv4-compatible', 'loopback'],
  ])('%s carries a refused IPv4 address (%s, %s)', (address, embeddedIn, kind) => {
    expect(blockedAddress(address)).toMatchObject({ address, embeddedIn, kind });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(blockedAddress(address)).toBeUndefined();
  });

  it('names the kind and range in words', () => {
    expect(describeBlocked(blockedAddress('10.0.0.1')!)).toBe('10.0.0.1 is a private address (10.0.0.0/8)');
    expect(describeBlocked(blockedAddress('::ffff:127.0.0.1')!)).toBe(
      '::ffff:127.0.0.1 is an IPv4-mapped loopback address (127.0.0.0/8)',
    );
    expect(describeBlocked(blockedAddress('169.254.169.254')!)).toBe('169.254.169.254 is a cloud metadata address');
  });

  it('parses every IPv6 notation to the same bytes', () => {
    const full = parseIPv6('0000:0000:0000:0000:0000:ffff:7f00:0001');
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(full);
    expect(parseIPv6('[::ffff:7f00:1]')).toEqual(full);
    expect(parseIPv6('fe80::1%eth0')).toEqual(parseIPv6('fe80:0:0:0:0:0:0:1'));
    expect(parseIPv6('1::')).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(parseIPv6('not-an-address')).toBeUndefined();
  });
});
