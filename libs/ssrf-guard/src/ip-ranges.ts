import { Cidr, inPrefix, IpBytes, parseCidr, parseIp } from './ip-address';

/** Why an address is not a public destination. */
export type AddressKind =
  | 'cloud metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'unique-local'
  | 'site-local'
  | 'discard-only';

/** A refused address: what kind it is, the range it fell in, and for an embedded IPv4 address how it was embedded. */
export interface BlockedAddress {
  address: string;
  kind: AddressKind;
  range: string;
  embeddedIn?: string;
}

interface Range extends Cidr {
  text: string;
  kind: AddressKind;
}

const ranges = (entries: Array<[string, AddressKind]>): Range[] =>
  entries.map(([text, kind]) => ({ text, kind, ...parseCidr(text)! }));

/**
 * Instance metadata services of the clouds, named before their ranges so that a refusal says what they are:
 * AWS/GCP/Azure/OpenStack 169.254.169.254, AWS ECS task metadata 169.254.170.2, AWS DNS 169.254.169.253, Tencent
 * 169.254.0.23, Alibaba 100.100.100.200, Oracle 192.0.0.192, AWS over IPv6 fd00:ec2::254 and fd00:ec2::23.
 */
const METADATA = ranges(
  [
    '169.254.169.254',
    '169.254.170.2',
    '169.254.169.253',
    '169.254.0.23',
    '100.100.100.200',
    '192.0.0.192',
    'fd00:ec2::254',
    'fd00:ec2::23',
  ].map((address) => [address, 'cloud metadata']),
);

/** IANA special-purpose IPv4 blocks that are not globally reachable destinations. */
const IPV4 = ranges([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6 = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['64:ff9b:1::/48', 'reserved'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

/** IPv6 forms that carry an IPv4 address: that address decides. [prefix, where its 4 bytes start, name]. */
const EMBEDDING: Array<[Cidr, number, string]> = [
  [parseCidr('::ffff:0:0/96')!, 12, 'IPv4-mapped'],
  [parseCidr('::ffff:0:0:0/96')!, 12, 'IPv4-translated'],
  [parseCidr('64:ff9b::/96')!, 12, 'NAT64'],
  [parseCidr('2002::/16')!, 2, '6to4'],
  [parseCidr('::/96')!, 12, 'IPv4-compatible'],
];

/**
 * The reason `address` (an IP literal) is not a public destination, or undefined when it is one. An IPv6 address that
 * embeds an IPv4 address (mapped, translated, NAT64, 6to4, compatible) is judged by the IPv4 address it carries.
 */
export function blockedAddress(address: string): BlockedAddress | undefined {
  const bytes = parseIp(address);
  if (!bytes) throw new Error(`not an IP address: ${address}`);
  return classify(address, bytes);
}

function classify(address: string, bytes: IpBytes): BlockedAddress | undefined {
  const hit = (list: Range[]) => list.find((range) => inPrefix(bytes, range.network, range.prefix));
  const found = hit(METADATA) ?? hit(bytes.length === 4 ? IPV4 : IPV6);
  if (found) return { address, kind: found.kind, range: found.text };
  if (bytes.length === 4) return undefined;
  const embedding = EMBEDDING.find(([cidr]) => inPrefix(bytes, cidr.network, cidr.prefix));
  if (!embedding) return undefined;
  const [, start, name] = embedding;
  const inner = bytes.slice(start, start + 4);
  const verdict = classify(inner.join('.'), inner);
  return verdict && { ...verdict, address, embeddedIn: name };
}

/** `a private address (10.0.0.0/8)`, `an IPv4-mapped loopback address (127.0.0.0/8)`, `a cloud metadata address`. */
export function describeKind(blocked: BlockedAddress): string {
  const kind = blocked.embeddedIn ? `${blocked.embeddedIn} ${blocked.kind}` : blocked.kind;
  const article = /^(?:[aeio]|u(?!ni))/i.test(kind) ? 'an' : 'a';
  const range = blocked.range.includes('/') ? ` (${blocked.range})` : '';
  return `${article} ${kind} address${range}`;
}

/** `10.0.0.1 is a private address (10.0.0.0/8)`. */
export function describeBlocked(blocked: BlockedAddress): string {
  return `${blocked.address} is ${describeKind(blocked)}`;
}
