import { errorMessage } from '@app/consumer-runtime';
import { takeLeaseOwnerLock } from '@app/webhooks';
import { Client } from 'pg';
import { Logger } from 'pino';

/** The channel that tells delivery workers in every process that new deliveries were committed. */
export const DELIVERIES_CHANNEL = 'hookrail_webhook_deliveries';

const RECONNECT_MS = 1_000;

export interface WorkersSessionEvents {
  /** A NOTIFY on DELIVERIES_CHANNEL. */
  notified(): void;
  /** The session ended: other processes may now take over every delivery claimed under its key. */
  lost(): void;
}

/**
 * The delivery workers' own connection: it LISTENs on DELIVERIES_CHANNEL and holds this process's lease-owner lock,
 * whose key (`leaseOwner`) its claims carry. A lost connection is opened again after a second, with a new key;
 * meanwhile `leaseOwner` is null (claims then carry none and wait out their lease) and the workers' poll finds the
 * deliveries.
 */
export class WorkersSession {
  leaseOwner: number | null = null;
  private client?: Client;
  private closed = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly events: WorkersSessionEvents,
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
    const client = new Client({ connectionString: this.url, application_name: 'hookrail-webhook-listener' });
    client.on('notification', () => this.events.notified());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      this.leaseOwner = await takeLeaseOwnerLock(client);
      this.client = client;
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.closed || this.timer) return;
    if (error) this.logger.warn({ group: 'webhooks', err: errorMessage(error) }, 'webhook workers session lost');
    const owned = this.leaseOwner !== null;
    this.leaseOwner = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (owned) this.events.lost();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, RECONNECT_MS);
  }
}
