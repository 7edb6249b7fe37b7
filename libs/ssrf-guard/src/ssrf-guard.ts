import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AllowList, normalizeHost } from './allow-list';
import { blockedAddress, describeBlocked, describeKind } from './ip-ranges';

/** What a customer-supplied URL may point at, besides a public address on the scheme's own port. */
export interface SsrfPolicy {
  /** `http` URLs too (development); otherwise `https` only. */
  allowHttp: boolean;
  /** Ports allowed besides 443 (https) and 80 (http). */
  allowPorts: readonly number[];
  /** Hosts, addresses and ranges that skip the address and port rules. */
  allowList: AllowList;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → its addresses. The system resolver by default; tests inject their own, so no name leaves the machine. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const RESOLVE_TIMEOUT_MS = 5_000;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** A URL the guard refused, with a reason meant for the person who supplied it. */
export class UrlRefusedError extends Error {
  override name = 'UrlRefusedError';

  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url.slice(0, 200)} is refused: ${reason}`);
  }
}

/** A URL that passed, with the one address to connect to: the one that was checked (no second lookup). */
export interface CheckedUrl {
  url: URL;
  /** The host without brackets: the Host header, and the TLS server name. */
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
  allowListed: boolean;
}

interface Inspected {
  url: URL;
  hostname: string;
  port: number;
  allowListed: boolean;
}

/**
 * The SSRF guard for customer-supplied URLs: https only (http by configuration), no credentials in the URL, the
 * scheme's standard port unless allowed, and every address the host resolves to must be public (not loopback,
 * private, link-local, carrier-grade NAT, multicast, unspecified, unique-local, cloud metadata, or an IPv6 form
 * embedding one of those). The allow-list is the only way around the address and port rules.
 */
export class SsrfGuard {
  constructor(
    readonly policy: SsrfPolicy,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /**
   * When an endpoint is created: the URL's form and, unless its host is allow-listed, its addresses. Throws
   * UrlRefusedError with the reason.
   */
  async checkNew(raw: string): Promise<void> {
    const inspected = this.inspect(raw);
    if (!inspected.allowListed) await this.pin(raw, inspected);
  }

  /**
   * Before every delivery: the same rules, and the address to connect to. Throws UrlRefusedError with the reason.
   * The caller connects to `address` (see pinnedLookup), never to what a second lookup of the name might return.
   */
  async check(raw: string): Promise<CheckedUrl> {
    return this.pin(raw, this.inspect(raw));
  }

  private inspect(raw: string): Inspected {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlRefusedError(raw, 'it is not a valid absolute URL');
    }
    const refuse = (reason: string) => new UrlRefusedError(raw, reason);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw refuse(`the scheme ${url.protocol.slice(0, -1)} is not allowed; use https`);
    if (url.protocol === 'http:' && !this.policy.allowHttp)
      throw refuse('only https URLs are allowed (http needs OUTBOUND_WEBHOOKS_ALLOW_HTTP=true)');
    if (url.username || url.password) throw refuse('credentials in the URL are not allowed');
    const hostname = normalizeHost(url.hostname);
    if (!hostname) throw refuse('it has no host');
    const allowListed = this.policy.allowList.allowsHost(hostname);
    const standard = url.protocol === 'https:' ? 443 : 80;
    const port = url.port ? Number(url.port) : standard;
    if (!allowListed && port !== standard && !this.policy.allowPorts.includes(port))
      throw refuse(`port ${port} is not allowed (only ${standard}, or a port listed in OUTBOUND_WEBHOOKS_ALLOW_PORTS)`);
    return { url, hostname, port, allowListed };
  }

  private async pin(raw: string, { url, hostname, port, allowListed }: Inspected): Promise<CheckedUrl> {
    const literal = isIP(hostname);
    const addresses: ResolvedAddress[] = literal
      ? [{ address: hostname, family: literal === 6 ? 6 : 4 }]
      : await this.resolveName(raw, hostname);
    const accepted = addresses.filter(
      ({ address }) => allowListed || this.policy.allowList.allowsAddress(address) || !blockedAddress(address),
    );
    if (accepted.length === 0) {
      const blocked = blockedAddress(addresses[0].address)!;
      const reason = literal
        ? describeBlocked(blocked)
        : `${hostname} resolves to ${blocked.address}, ${describeKind(blocked)}`;
      throw new UrlRefusedError(
        raw,
        `${reason}; such addresses are reachable only through OUTBOUND_WEBHOOKS_ALLOW_HOSTS`,
      );
    }
    const [{ address, family }] = accepted;
    return {
      url,
      hostname,
      port,
      address,
      family,
      allowListed: allowListed || this.policy.allowList.allowsAddress(address),
    };
  }

  private async resolveName(raw: string, hostname: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const addresses = await Promise.race([
        this.resolve(hostname),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
        }),
      ]);
      if (addresses.length === 0) throw new Error('no addresses');
      return addresses;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UrlRefusedError(
        raw,
        `its host ${hostname} could not be resolved (${code ?? (error as Error).message})`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
