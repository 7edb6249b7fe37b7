import { CONSUMER_GROUPS } from '@app/contracts';
import { Database, managerRows } from '@app/db';
import { AuditEntry, DEAD_LETTER_STORE_GROUP, DeadLetterAuditRepository } from '@app/dead-letters';
import { findConsumerLag, PartitionLag } from '@app/kafka';
import { OutboxBacklog, OutboxRepository } from '@app/outbox';
import { Inject, Injectable } from '@nestjs/common';
import { AdminKafka } from '../admin-kafka';

export const ADMIN_KAFKA_NAMESPACE = Symbol('ADMIN_KAFKA_NAMESPACE');

/** GET /admin/backlog, /admin/lag and /admin/audit: what an operator looks at first. */
@Injectable()
export class GetOperationsUseCase {
  constructor(
    private readonly database: Database,
    private readonly kafka: AdminKafka,
    @Inject(ADMIN_KAFKA_NAMESPACE) private readonly namespace: string,
  ) {}

  async backlog(): Promise<OutboxBacklog> {
    return new OutboxRepository(managerRows((await this.database.connection()).manager)).backlog();
  }

  /** Per group (the project's groups and the dead-letter store unless `groups` names others), topic and partition. */
  async lag(groups: string[]): Promise<PartitionLag[]> {
    const groupIds = groups.length
      ? groups
      : [...CONSUMER_GROUPS, DEAD_LETTER_STORE_GROUP].map((group) => `${this.namespace}${group}`);
    return findConsumerLag(await this.kafka.admin(), groupIds);
  }

  async audit(limit: number): Promise<AuditEntry[]> {
    return new DeadLetterAuditRepository(await this.database.connection()).recent(limit);
  }
}
