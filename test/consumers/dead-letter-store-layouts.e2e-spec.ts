import { Closable } from '@app/config';
import { CONSUMER_GROUPS, DEAD_LETTER_STORE_GROUP } from '@app/contracts';
import { startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { deleteTopics, orderEvent, produce, TestProcesses, TEST_KAFKA, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../../apps/consumers/src/testing/consumers-fixtures';

const PARTITIONS = 2;

/**
 * The documented way to add a group (docs/consumers.md): run it as its own process while the consumers process already running is older
 * and does not know it. The new process is the real consumers app running only `analytics` (with the dead-letter
 * store, as by default); the older one is represented by its store, started the way the consumers app starts it with
 * every group but `analytics`. Both are members of the same store group, in either order of start; every dead letter
 * of the new group must be indexed.
 */
describe('dead letters of a group run as its own process beside an older consumers process', () => {
  const processes = new TestProcesses();
  const beds: ConsumersTestBed[] = [];
  const olderStores: Closable[] = [];

  afterAll(async () => {
    await processes.killAll();
    await Promise.all(olderStores.map((store) => store.close()));
    for (const bed of beds) {
      await deleteTopics(CONSUMER_GROUPS.map((group) => `${bed.namespace}${group}.dlt`)).catch(() => undefined);
      await bed.stop().catch(() => undefined);
    }
  });

  async function startOlderStore(bed: ConsumersTestBed): Promise<void> {
    const store = await startDeadLetterStore(
      {
        databaseUrl: bed.database.url,
        kafka: TEST_KAFKA,
        namespace: bed.namespace,
        groups: CONSUMER_GROUPS.filter((group) => group !== 'analytics'),
        createTopics: true,
        topicPartitions: PARTITIONS,
        retentionSeconds: 86_400,
        retentionEveryMs: 3_600_000,
      },
      createLogger('older-dlq-store', 'silent'),
    );
    olderStores.push(store);
  }

  async function startNewGroupProcess(bed: ConsumersTestBed): Promise<void> {
    const consumers = processes.start(
      'consumers',
      bed.processEnv({ DEAD_LETTER_STORE: 'true', TOPIC_PARTITIONS: String(PARTITIONS), METRICS_PORT: '0' }),
    );
    await consumers.waitForLog('consumers started');
  }

  async function storeMembers(bed: ConsumersTestBed): Promise<number> {
    const admin = bed.kafka.admin();
    await admin.connect();
    try {
      const [group] = (await admin.describeGroups([`${bed.namespace}${DEAD_LETTER_STORE_GROUP}`])).groups;
      return group.state === 'Stable' ? group.members.length : 0;
    } finally {
      await admin.disconnect();
    }
  }

  it.each([
    ['the older process is running first', 'older'],
    ['the new group starts first', 'new'],
  ])('indexes every dead letter of the new group when %s', async (_, first) => {
    const bed = await ConsumersTestBed.start('dlq-layout', 'analytics');
    beds.push(bed);
    if (first === 'older') {
      await startOlderStore(bed);
      await startNewGroupProcess(bed);
    } else {
      await startNewGroupProcess(bed);
      await startOlderStore(bed);
    }
    await waitFor(async () => (await storeMembers(bed)) === 2, {
      what: 'the store group stable with both processes',
      timeoutMs: 30_000,
    });

    // Invalid for analytics (a negative amount): dead-lettered at once, keyed by order, over both DLT partitions.
    const invalid = Array.from({ length: 8 }, (_, index) =>
      orderEvent(`ord-layout-${index}`, { data: { amount: -1 } }),
    );
    await produce(bed.kafka, bed.topic, invalid);
    const admin = bed.kafka.admin();
    await admin.connect();
    const perPartition = await waitFor(
      async () => {
        const offsets = await admin.fetchTopicOffsets(`${bed.namespace}analytics.dlt`);
        const counts = offsets.map((offset) => Number(offset.high));
        return counts.reduce((sum, count) => sum + count, 0) === invalid.length ? counts : undefined;
      },
      { what: 'every invalid event on analytics.dlt', timeoutMs: 30_000 },
    ).finally(() => admin.disconnect());
    expect(perPartition.every((count) => count > 0)).toBe(true);

    await waitFor(
      async () => {
        const [row] = await bed.dataSource.query(
          `SELECT count(*)::int AS n FROM dead_letters WHERE "group" = 'analytics' AND event_id = ANY($1)`,
          [invalid.map((event) => event.id)],
        );
        return row.n === invalid.length;
      },
      { what: `the ${invalid.length} dead letters of analytics indexed`, timeoutMs: 20_000 },
    );
  });
});
