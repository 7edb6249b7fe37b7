import { CloudEvent } from '@app/contracts';
import { connect } from '@app/db';
import { createTestDatabase, TestDatabase, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { Client, Notification } from 'pg';
import { DataSource } from 'typeorm';
import { addToOutbox } from './outbox';
import { OUTBOX_CHANNEL } from './outbox-notify';

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
    dataSource = await connect({ url: database.url, applicationName: 'outbox-notify-test', poolSize: 1 });
    listener = new Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (notification) => notifications.push(notification));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
  });

  afterAll(async () => {
    await listener.end();
    await dataSource.destroy();
    await database.drop();
  });

  it('fires once per committed transaction, however many rows it inserted, and never for a rolled-back one', async () => {
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < 50; i++) await addToOutbox(manager, 'topic', event());
    });
    await dataSource
      .transaction(async (manager) => {
        await addToOutbox(manager, 'topic', event());
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await dataSource.transaction((manager) => addToOutbox(manager, 'topic', event()));

    // Notifications arrive in commit order: once the second arrived, the first transaction sent exactly one.
    await waitFor(() => notifications.length >= 2, { what: 'two notifications' });
    expect(notifications.map((notification) => notification.channel)).toEqual([OUTBOX_CHANNEL, OUTBOX_CHANNEL]);
  });
});
