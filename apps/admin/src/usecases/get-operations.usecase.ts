import { GroupPartitionLag } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { AuditEntry, DeadLetterAudit } from '@app/dead-letters';
import { OutboxBacklog, OutboxRepository } from '@app/outbox';
import { Injectable } from '@nestjs/common';
import { ConsumerLagProbe } from '../lag/consumer-lag.probe';

/** GET /admin/backlog, /admin/lag and /admin/audit: what an operator looks at first. */
@Injectable()
export class GetOperationsUseCase {
  constructor(
    private readonly database: Database,
    private readonly lagProbe: ConsumerLagProbe,
  ) {}

  async backlog(): Promise<OutboxBacklog> {
    return new OutboxRepository(managerRows((await this.database.connection()).manager)).backlog();
  }

  /**
   * Per group, topic and partition: the groups named by id, or every group (the project's, those a consumers process
   * registered, and the dead-letter store), each partition counted, also those a group never committed on.
   */
  lag(groups: string[]): Promise<GroupPartitionLag[]> {
    return this.lagProbe.reader.measure(groups);
  }

  async audit(limit: number): Promise<AuditEntry[]> {
    return new DeadLetterAudit(await this.database.connection()).recent(limit);
  }
}
