import { DataSource, EntityManager } from 'typeorm';

/** The team that answers for a group's dead letters and alerts. */
export interface GroupOwner {
  team: string;
  /** Where to reach them: an address, a channel, a rota. */
  contact: string;
}

export interface ConsumerGroupOwner extends GroupOwner {
  group: string;
  topics: string[];
  registeredAt: Date;
}

/** The consumer_group_owners statements, one method each. */
export class ConsumerGroupOwnersRepository {
  constructor(private readonly db: DataSource | EntityManager) {}

  /** Records (or updates) the owner and topics of a group that a process starts. */
  async register(group: string, owner: GroupOwner, topics: readonly string[]): Promise<void> {
    await this.db.query(
      `INSERT INTO consumer_group_owners ("group", team, contact, topics) VALUES ($1, $2, $3, $4::varchar[])
       ON CONFLICT ("group") DO UPDATE SET
         team = EXCLUDED.team, contact = EXCLUDED.contact, topics = EXCLUDED.topics, registered_at = now()`,
      [group, owner.team, owner.contact, [...topics]],
    );
  }

  /** Every group that has ever run, by name. */
  async list(): Promise<ConsumerGroupOwner[]> {
    const rows: Array<{ group: string; team: string; contact: string; topics: string[]; registered_at: Date }> =
      await this.db.query(
        `SELECT "group", team, contact, topics, registered_at FROM consumer_group_owners ORDER BY "group"`,
      );
    return rows.map((row) => ({
      group: row.group,
      team: row.team,
      contact: row.contact,
      topics: row.topics,
      registeredAt: new Date(row.registered_at),
    }));
  }
}
