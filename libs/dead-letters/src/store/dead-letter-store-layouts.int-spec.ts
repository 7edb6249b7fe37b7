import { dltTopic, HOOKRAIL_HEADERS, replayTopic } from '@app/contracts';
import { connect } from '@app/db';
import { ensureTopics } from '@app/kafka';
import { createLogger } from '@app/logger';
import { createTestDatabase, deleteTopics, testKafka, TestDatabase, uniqueName, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeadLetterStore, DeadLetterTopics } from './dead-letter-store';

const PARTITIONS = 3;

/**
 * Two processes whose stores know different groups, in one store group: an older process and a newer one that runs a
 * group the older does not know (what a rollout, or a new group run as its own process, looks like). Each DLT has
 * three partitions, so that any split of them between the two members would leave some with the wrong one.
 */
describe('dead-letter store: members that know different groups share one store group', () => {
  const kafka = testKafka('dlq-store-layouts');
  let database: TestDatabase;
  let dataSource: DataSource;
  const topics: string[] = [];
  const stores: DeadLetterStore[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'dlq-store-layouts', poolSize: 4 });
  });

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.stop()));
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics(topics).catch(() => undefined);
  });

  async function groupTopics(prefix: string): Promise<DeadLetterTopics> {
    const group = uniqueName(prefix);
    const source = { group, dltTopic: dltTopic(group), replayTopic: replayTopic(group) };
    await ensureTopics(kafka, [{ topic: source.dltTopic, numPartitions: PARTITIONS }]);
    topics.push(source.dltTopic);
    return source;
  }

  async function startStore(groupId: string, sources: DeadLetterTopics[]): Promise<void> {
    const store = new DeadLetterStore({
      kafka,
      dataSource,
      logger: createLogger('dlq-store', 'silent'),
      groupId,
      sources,
    });
    stores.push(store);
    await store.start();
  }

  /** Both members joined and the group settled: the assignment that follows is the one the test is about. */
  async function settled(groupId: string, members: number): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          const [group] = (await admin.describeGroups([groupId])).groups;
          return group.state === 'Stable' && group.members.length === members;
        },
        { what: `store group ${groupId} stable with ${members} members`, timeoutMs: 30_000 },
      );
    } finally {
      await admin.disconnect();
    }
  }

  /** One dead letter on every partition of the group's DLT. */
  async function deadLetterEverywhere(source: DeadLetterTopics): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({
        topic: source.dltTopic,
        acks: -1,
        messages: Array.from({ length: PARTITIONS }, (_, partition) => ({
          partition,
          key: `key-${partition}`,
          value: '{}',
          headers: {
            [HOOKRAIL_HEADERS.dltGroup]: source.group,
            [HOOKRAIL_HEADERS.dltEventId]: randomUUID(),
            [HOOKRAIL_HEADERS.dltErrorClass]: 'PermanentError',
          },
        })),
      });
    } finally {
      await producer.disconnect();
    }
  }

  const indexed = async (groups: string[]) =>
    (await dataSource.query(`SELECT count(*)::int AS n FROM dead_letters WHERE "group" = ANY($1)`, [groups]))[0]
      .n as number;

  it.each([
    ['the older process starts first', 'older'],
    ['the newer process starts first', 'newer'],
  ])('indexes every partition of both groups when %s', async (_, first) => {
    const storeGroup = uniqueName('dlq-store');
    const known = await groupTopics('known');
    const added = await groupTopics('added');
    const older = () => startStore(storeGroup, [known]);
    const newer = () => startStore(storeGroup, [known, added]);
    if (first === 'older') {
      await older();
      await newer();
    } else {
      await newer();
      await older();
    }
    await settled(storeGroup, 2);

    await Promise.all([deadLetterEverywhere(known), deadLetterEverywhere(added)]);
    await waitFor(async () => (await indexed([known.group, added.group])) === 2 * PARTITIONS, {
      what: `the ${2 * PARTITIONS} dead letters indexed`,
      timeoutMs: 20_000,
    });
    expect(await indexed([added.group])).toBe(PARTITIONS);
  });
});
