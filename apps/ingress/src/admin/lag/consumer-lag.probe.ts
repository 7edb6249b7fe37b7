import { CONSUMER_GROUPS } from '@app/contracts';
import { findConsumerLag } from '@app/kafka';
import { LOGGER } from '@app/logger';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { AdminKafka } from '../admin-kafka';
import { ADMIN_KAFKA_NAMESPACE } from '../usecases/get-operations.usecase';

/** Kafka did not answer within this long: the lag is unknown for now (the scrape or sample goes on without it). */
const TIMEOUT_MS = 3000;
/** Several readers within this long (the scrape's gauges, the chart sampler) share one measurement. */
const CACHE_MS = 2000;

/**
 * Lag per consumer group (the project's groups, by name without the namespace), summed over its topics and
 * partitions, measured from outside the groups: committed offsets against high watermarks through the ingress's
 * lazy Kafka admin client. A group that stopped, or whose process died, still shows its growing lag here; a group that
 * never committed anything has no entry.
 */
@Injectable()
export class ConsumerLagProbe {
  private cached?: { at: number; value: Promise<Map<string, number> | undefined> };

  constructor(
    private readonly kafka: AdminKafka,
    @Inject(ADMIN_KAFKA_NAMESPACE) private readonly namespace: string,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  byGroup(): Promise<Map<string, number> | undefined> {
    if (!this.cached || Date.now() - this.cached.at > CACHE_MS) this.cached = { at: Date.now(), value: this.measure() };
    return this.cached.value;
  }

  private async measure(): Promise<Map<string, number> | undefined> {
    const measured = this.kafka.admin().then(async (admin) => {
      const rows = await findConsumerLag(
        admin,
        CONSUMER_GROUPS.map((group) => `${this.namespace}${group}`),
      );
      const totals = new Map<string, number>();
      for (const row of rows) {
        const group = row.groupId.slice(this.namespace.length);
        totals.set(group, (totals.get(group) ?? 0) + row.lag);
      }
      return totals;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), TIMEOUT_MS);
    });
    try {
      return await Promise.race([measured, timeout]);
    } catch (error) {
      this.logger.debug({ err: (error as Error).message }, 'consumer lag unavailable');
      return undefined;
    } finally {
      clearTimeout(timer);
      measured.catch(() => undefined);
    }
  }
}
