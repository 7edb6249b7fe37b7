import { errorMessage } from '@app/consumer-runtime';
import { Client } from 'pg';
import { Logger } from 'pino';

/** The channel that tells delivery workers in every process that new deliveries were committed. */
export const DELIVERIES_CHANNEL = 'hookrail_webhook_deliveries';

const RECONNECT_MS = 1_000;

/**
 * A dedicated connection LISTENing on DELIVERIES_CHANNEL, calling `onNotification` for each NOTIFY. A lost
 * connection is opened again after a second; meanwhile the workers' poll finds the deliveries.
 */
export class DeliveriesListener {
  private client?: Client;
  private closed = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly onNotification: () => void,
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
    client.on('notification', () => this.onNotification());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.closed || this.timer) return;
    if (error) this.logger.warn({ group: 'webhooks', err: errorMessage(error) }, 'webhook listener connection lost');
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, RECONNECT_MS);
  }
}
