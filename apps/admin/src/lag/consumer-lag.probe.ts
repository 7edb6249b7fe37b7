import { ConsumerLagReader, lagByGroup } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { errorMessage, LOGGER } from '@app/logger';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { ADMIN_KAFKA_NAMESPACE, AdminKafka } from '../admin-kafka';

/**
 * The ingress's ConsumerLagReader (libs/consumer-runtime), through its lazy Kafka admin client: the lag `/metrics`,
 * `/admin/lag`, `/admin/consumer-groups` and the charts show, measured from outside the groups. A group that stopped,
 * crash-loops or never committed still shows every message waiting for it.
 */
@Injectable()
export class ConsumerLagProbe {
  readonly reader: ConsumerLagReader;

  constructor(
    kafka: AdminKafka,
    database: Database,
    @Inject(ADMIN_KAFKA_NAMESPACE) namespace: string,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.reader = new ConsumerLagReader({
      admin: () => kafka.admin(),
      database: async () => managerRows((await database.connection()).manager),
      namespace,
      onError: (error) => logger.debug({ err: errorMessage(error) }, 'consumer lag unavailable'),
    });
  }

  /** Lag per group (by name), shared by readers within 2 s; undefined while Kafka does not answer. */
  async byGroup(): Promise<Map<string, number> | undefined> {
    const rows = await this.reader.every();
    return rows && lagByGroup(rows);
  }
}
