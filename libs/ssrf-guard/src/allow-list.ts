import { Cidr, inPrefix, parseCidr, parseIp } from './ip-address';

export class InvalidAllowListError extends Error {
  override name = 'InvalidAllowListError';
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A host name as compared: lower case, without the trailing dot of a fully qualified name, without brackets. */
export const normalizeHost = (host: string): string =>
  host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/**
 * The operator's explicit exceptions to the address rules (`OUTBOUND_WEBHOOKS_ALLOW_HOSTS`): exact host names
 * (`hooks.internal.example`), addresses (`127.0.0.1`, `::1`) and ranges (`10.20.0.0/16`). Nothing else gets past
 * the guard.
 */
export class AllowList {
  private constructor(
    readonly entries: readonly string[],
    private readonly names: ReadonlySet<string>,
    private readonly cidrs: readonly Cidr[],
  ) {}

  static readonly EMPTY = new AllowList([], new Set(), []);

  /** Throws InvalidAllowListError naming the first entry that is neither a host name, an address nor a range. */
  static parse(entries: readonly string[]): AllowList {
    const names = new Set<string>();
    const cidrs: Cidr[] = [];
    for (const raw of entries) {
      const entry = normalizeHost(raw.trim());
      if (!entry) continue;
      const cidr = parseCidr(entry);
      if (cidr) cidrs.push(cidr);
      else if (HOST_NAME.test(entry)) names.add(entry);
      else throw new InvalidAllowListError(`"${raw}" is neither a host name, an IP address nor a CIDR range`);
    }
    return new AllowList(entries.map((entry) => entry.trim()).filter(Boolean), names, cidrs);
  }

  get isEmpty(): boolean {
    return this.names.size === 0 && this.cidrs.length === 0;
  }

  /** The URL's host as written: a listed name, or an address literal inside a listed range. */
  allowsHost(host: string): boolean {
    const normalized = normalizeHost(host);
    return this.names.has(normalized) || (parseIp(normalized) !== undefined && this.allowsAddress(normalized));
  }

  /** A resolved address inside a listed address or range. */
  allowsAddress(address: string): boolean {
    const bytes = parseIp(address);
    return bytes !== undefined && this.cidrs.some((cidr) => inPrefix(bytes, cidr.network, cidr.prefix));
  }
}
