import { errorMessage } from '@app/consumer-runtime';
import { Client } from 'pg';
import { Logger } from 'pino';
import { takeLeaseOwnerLock } from './lease-owners';

const RECONNECT_MS = 1_000;

export interface LeaseOwnerSessionOptions {
  url: string;
  /** The connection's `application_name`, as `pg_stat_activity` shows it. */
  applicationName: string;
  /** The kind's group, which its log lines name. */
  group: string;
  /** A channel to LISTEN on: each NOTIFY calls `notified` (new tasks were committed). */
  channel?: string;
  notified?(): void;
  /** The session ended: other processes may now take over every task claimed under its key. */
  lost(): void;
}

/**
 * How a process holds the leases of one kind of task: its own connection, holding this process's lease-owner lock,
 * whose key (`leaseOwner`) the kind's claims carry. The lease is held while the claim's fencing token is current, its
 * `lease_until` has not passed (work that can outlast it renews it: LeaseKeeper) and this session lives; it is lost
 * when any of the three ends. A lost connection calls `lost` (the work in hand stops) and is opened again after a
 * second, with a new key; meanwhile `leaseOwner` is null, so claims carry none and wait out their lease.
 */
export class LeaseOwnerSession {
  leaseOwner: number | null = null;
  private client?: Client;
  private closed = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly options: LeaseOwnerSessionOptions,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { url, applicationName, channel, notified } = this.options;
    const client = new Client({ connectionString: url, application_name: applicationName });
    if (notified) client.on('notification', () => notified());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      if (channel) await client.query(`LISTEN ${channel}`);
      this.leaseOwner = await takeLeaseOwnerLock(client);
      this.client = client;
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.closed || this.timer) return;
    const { group } = this.options;
    if (error) this.logger.warn({ group, err: errorMessage(error) }, 'lease-owner session lost');
    const owned = this.leaseOwner !== null;
    this.leaseOwner = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (owned) {
      this.logger.warn({ group }, 'lease-owner session lost: the tasks in hand stop; other processes may take them');
      this.options.lost();
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, RECONNECT_MS);
  }
}

/** How often a process looks for tasks whose lease owner's session is gone. */
export const GONE_OWNERS_CHECK_MS = 1_000;

/**
 * Every GONE_OWNERS_CHECK_MS, the kind's takeover (`takeOver`: its tasks whose owner's session is gone made due at
 * once, how many); `tookOver` when it found some (log, wake the workers). Returns what stops it.
 */
export function watchGoneOwners(
  group: string,
  takeOver: () => Promise<number>,
  tookOver: (count: number) => void,
  logger: Logger,
): () => void {
  const timer = setInterval(() => {
    takeOver().then(
      (count) => {
        if (count === 0) return;
        logger.warn(
          { group, tasks: count },
          'tasks of a process that is gone: due again without waiting for their lease',
        );
        tookOver(count);
      },
      (error: unknown) =>
        logger.warn({ group, err: errorMessage(error) }, 'could not look for tasks of gone processes'),
    );
  }, GONE_OWNERS_CHECK_MS);
  return () => clearInterval(timer);
}
