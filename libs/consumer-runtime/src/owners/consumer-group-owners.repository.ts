import { CONSUMER_GROUPS } from '@app/contracts/light';
import { QueryRows } from '@app/db/light';
import { Concurrency } from '../consumer-states';

/** The team that answers for a group's dead letters and alerts. */
export interface GroupOwner {
  team: string;
  /** Where to reach them: an address, a channel, a rota. */
  contact: string;
}

export interface ConsumerGroupOwner extends GroupOwner {
  group: string;
  topics: string[];
  /** How the group works through its partitions, as its process last started it. */
  concurrency: Concurrency;
  registeredAt: Date;
}

/** The consumer_group_owners statements, one method each. */
export class ConsumerGroupOwnersRepository {
  constructor(private readonly rows: QueryRows) {}

  /** Records (or updates) the owner, topics and concurrency of a group that a process starts. */
  async register(
    group: string,
    owner: GroupOwner,
    topics: readonly string[],
    concurrency: Concurrency = 'batch',
  ): Promise<void> {
    await this.rows(
      `INSERT INTO consumer_group_owners ("group", team, contact, topics, concurrency)
       VALUES ($1, $2, $3, $4::varchar[], $5)
       ON CONFLICT ("group") DO UPDATE SET
         team = EXCLUDED.team, contact = EXCLUDED.contact, topics = EXCLUDED.topics,
         concurrency = EXCLUDED.concurrency, registered_at = now()
       RETURNING "group"`,
      [group, owner.team, owner.contact, [...topics], concurrency],
    );
  }

  /** The groups a token or a filter may name: those hookrail ships and every one that has run. */
  async knownGroups(): Promise<string[]> {
    return [...new Set([...CONSUMER_GROUPS, ...(await this.list()).map((owner) => owner.group)])];
  }

  /** Every group that has ever run, by name. */
  async list(): Promise<ConsumerGroupOwner[]> {
    const rows = await this.rows<{
      group: string;
      team: string;
      contact: string;
      topics: string[];
      concurrency: Concurrency;
      registered_at: Date;
    }>(`SELECT "group", team, contact, topics, concurrency, registered_at FROM consumer_group_owners ORDER BY "group"`);
    return rows.map((row) => ({
      group: row.group,
      team: row.team,
      contact: row.contact,
      topics: row.topics,
      concurrency: row.concurrency,
      registeredAt: new Date(row.registered_at),
    }));
  }
}
