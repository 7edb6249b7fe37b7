import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = number[];

/** `10.0.0.1` → [10, 0, 0, 1]; undefined when the text is not a dotted-quad IPv4 address. */
export function parseIPv4(text: string): IpBytes | undefined {
  return isIPv4(text) ? text.split('.').map(Number) : undefined;
}

/**
 * `fd00:ec2::254`, `::ffff:127.0.0.1`, `[::1]` → 16 bytes; undefined when the text is not an IPv6 address. A zone
 * (`fe80::1%eth0`) is dropped: it names an interface, not an address.
 */
export function parseIPv6(text: string): IpBytes | undefined {
  let bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!isIPv6(bare)) return undefined;
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) becomes its two hex words (`::ffff:7f00:1`).
  bare = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((word) => word.toString(16)).join(':'),
  );
  const [head, rest] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? undefined : rest ? rest.split(':') : [];
  const words = right === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (words.length !== 8) return undefined;
  return words.flatMap((word) => {
    const value = parseInt(word, 16);
    return [value >> 8, value & 0xff];
  });
}

/** Either family: IPv4 dotted quad or IPv6 (with or without brackets); undefined for anything else (a host name). */
export function parseIp(text: string): IpBytes | undefined {
  return parseIPv4(text) ?? parseIPv6(text);
}

/** True when the first `prefix` bits of `address` equal those of `network` (and both are of one family). */
export function inPrefix(address: IpBytes, network: IpBytes, prefix: number): boolean {
  if (address.length !== network.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const bits = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if ((address[bit / 8] & mask) !== (network[bit / 8] & mask)) return false;
  }
  return true;
}

export interface Cidr {
  network: IpBytes;
  prefix: number;
}

/** `10.0.0.0/8`, `fd00::/8` or a single address (a full-length prefix); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const network = parseIp(address);
  if (!network) return undefined;
  const max = network.length * 8;
  if (prefixText === undefined) return { network, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { network, prefix: Number(prefixText) };
}
