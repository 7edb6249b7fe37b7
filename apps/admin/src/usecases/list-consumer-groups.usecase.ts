import { Concurrency, ConsumerGroupOwnersRepository } from '@app/consumer-runtime';
import { CONSUMER_GROUPS } from '@app/contracts';
import { Database, managerRows } from '@app/db';
import { DeadLettersRepository } from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { ConsumerLagProbe } from '../lag/consumer-lag.probe';

export interface ConsumerGroupView {
  group: string;
  /** Null until a consumers process has started the group (it registers its owner then). */
  owner: { team: string; contact: string } | null;
  topics: string[];
  /** `batch` or `key` (records of different keys at once); null until a consumers process has started the group. */
  concurrency: Concurrency | null;
  /** Null while Kafka does not answer, or when no topic of the group is known (no process has started it). */
  lag: number | null;
  /** Dead letters waiting in status `dead`. */
  dead: number;
}

/** GET /admin/consumer-groups: each group with its owner, its lag and its waiting dead letters. */
@Injectable()
export class ListConsumerGroupsUseCase {
  constructor(
    private readonly database: Database,
    private readonly lag: ConsumerLagProbe,
  ) {}

  async execute(): Promise<ConsumerGroupView[]> {
    const db = await this.database.connection();
    const [owners, lag, dead] = await Promise.all([
      new ConsumerGroupOwnersRepository(managerRows(db.manager)).list(),
      this.lag.byGroup(),
      new DeadLettersRepository(db).countDeadByErrorClass(),
    ]);
    const names = [...new Set([...CONSUMER_GROUPS, ...owners.map((owner) => owner.group)])].sort();
    return names.map((group) => {
      const owner = owners.find((row) => row.group === group);
      return {
        group,
        owner: owner ? { team: owner.team, contact: owner.contact } : null,
        topics: owner?.topics ?? [],
        concurrency: owner?.concurrency ?? null,
        lag: lag?.get(group) ?? null,
        dead: dead.filter((row) => row.group === group).reduce((sum, row) => sum + row.count, 0),
      };
    });
  }
}
