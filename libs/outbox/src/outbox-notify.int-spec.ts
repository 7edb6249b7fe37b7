import { CloudEvent } from '@app/contracts';
import { connect } from '@app/db';
import { createTestDatabase, TestDatabase, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { Client, Notification } from 'pg';
import { DataSource } from 'typeorm';
import { addToOutbox } from './outbox';
import { notifyOutbox, OUTBOX_CHANNEL, OutboxNotifier } from './outbox-notify';

describe('the outbox notification', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let listener: Client;
  const notifications: Notification[] = [];

  const event = (): CloudEvent => ({
    specversion: '1.0',
    id: randomUUID(),
    source: '/tests',
    type: 'test.v1',
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: 'aggregate-1',
    data: {},
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'outbox-notify-test', poolSize: 4 });
    listener = new Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (notification) => notifications.push(notification));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
  });

  beforeEach(() => {
    notifications.length = 0;
  });

  afterAll(async () => {
    await listener.end();
    await dataSource.destroy();
    await database.drop();
  });

  it('is never sent from inside the inserting transaction (its commit would hold the database-wide notify lock)', async () => {
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < 5; i++) await addToOutbox(manager, 'topic', event());
    });
    await notifyOutbox(dataSource);

    // Notifications arrive in commit order: once the explicit one is here, one from the insert would be here too.
    await waitFor(() => notifications.length >= 1, { what: 'the explicit notification' });
    expect(notifications.map((notification) => notification.channel)).toEqual([OUTBOX_CHANNEL]);
    const triggers = await dataSource.query(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'outbox'::regclass AND NOT tgisinternal`,
    );
    expect(triggers).toEqual([]);
  });

  it('reaches the listener after the commit, so the relay it wakes sees the rows', async () => {
    const notifier = new OutboxNotifier(() => notifyOutbox(dataSource));
    const reader = new Client({ connectionString: database.url });
    await reader.connect();
    const before = Number((await reader.query(`SELECT count(*)::int AS n FROM outbox`)).rows[0].n);
    const visibleWhenWoken = new Promise<number>((resolve, reject) => {
      listener.once('notification', () => {
        reader.query(`SELECT count(*)::int AS n FROM outbox`).then(({ rows }) => resolve(Number(rows[0].n)), reject);
      });
    });

    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < 3; i++) await addToOutbox(manager, 'topic', event());
    });
    notifier.committed();

    try {
      expect(await visibleWhenWoken).toBe(before + 3);
    } finally {
      await reader.end();
    }
  });
});
