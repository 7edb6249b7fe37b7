import { ConsumerMetrics } from '@app/consumer-runtime';
import { HOOKRAIL_HEADERS } from '@app/contracts';
import { connect } from '@app/db';
import { TaskDeadLetters } from '@app/tasks';
import {
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  orderEvent,
  TestDatabase,
  testKafka,
  TopicReader,
  waitFor,
} from '@app/testing';
import { Producer } from 'kafkajs';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { enqueueAgentTask } from './agent-tasks.repository';
import { AGENT_DEAD_LETTER_BATCH, agentDeadTasks } from './dead-agent-tasks';

describe('dead agent tasks to agent.dlt (real Postgres and Kafka)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let dlt: string;
  let producer: Producer;
  let reader: TopicReader;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'dead-agent-tasks-test', poolSize: 4 });
    dlt = await createTestTopic('agent.dlt');
    producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    reader = await TopicReader.start(dlt);
  });

  afterAll(async () => {
    await reader?.stop();
    await producer?.disconnect();
    await deleteTopics([dlt]);
    await dataSource?.destroy();
    await database?.drop();
  });

  it('a task left dead without its dead letter (the process died before the broker acked) is dead-lettered by the next sweep, once', async () => {
    const event = orderEvent('ord-crashed', { data: { note: 'please gift wrap' } });
    await enqueueAgentTask(dataSource.manager, {
      event,
      sourceTopic: 'shop.orders',
      sourcePartition: 3,
      sourceOffset: '41',
      replayCount: 0,
    });
    // What a crash between the transaction that marked it dead and the broker's ack leaves behind.
    await dataSource.query(
      `UPDATE agent_tasks SET state = 'dead', attempts = 5, last_error_class = 'ModelError', last_error = 'timeout',
                              first_failed_at = now(), next_attempt_at = 'infinity'
        WHERE event_id = $1`,
      [event.id],
    );
    const deadLetters = new TaskDeadLetters({
      group: 'agent',
      dltTopic: dlt,
      rows: agentDeadTasks,
      batch: AGENT_DEAD_LETTER_BATCH,
      dataSource,
      producer,
      metrics: new ConsumerMetrics(),
      logger: pino({ level: 'silent' }),
    });

    const sweep = deadLetters.sweep(100);
    try {
      const row = await waitFor(
        async () => {
          const rows: Array<{ dead_lettered_at: Date | null }> = await dataSource.query(
            `SELECT dead_lettered_at FROM agent_tasks WHERE event_id = $1 AND dead_lettered_at IS NOT NULL`,
            [event.id],
          );
          return rows[0];
        },
        { what: 'the dead task marked dead-lettered' },
      );
      expect(row.dead_lettered_at).toBeInstanceOf(Date);
      await waitFor(() => reader.messages.length > 0, { what: 'the dead letter on the topic' });
      // Later sweeps find nothing more to send.
      await waitFor(async () => (await deadLetters.flush()) === 0, { what: 'a sweep with nothing left' });
    } finally {
      await sweep.stop();
    }
    expect(reader.messages).toHaveLength(1);
    expect(reader.messages[0].headers).toMatchObject({
      [HOOKRAIL_HEADERS.dltTopic]: 'shop.orders',
      [HOOKRAIL_HEADERS.dltPartition]: '3',
      [HOOKRAIL_HEADERS.dltOffset]: '41',
      [HOOKRAIL_HEADERS.dltGroup]: 'agent',
      [HOOKRAIL_HEADERS.dltEventId]: event.id,
      [HOOKRAIL_HEADERS.dltAttempts]: '5',
    });
  });
});
