import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { OpsSamplesRepository } from './ops-samples.repository';
import { sampleSlots } from './sample-slots';
import { CHART_SAMPLERS } from './samplers';

describe('sampling the console charts', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const logger = createLogger('charts-test', 'silent');
  const interval = 10_000;
  const start = Math.floor(Date.now() / interval) * interval - 120_000;
  const at = (ms: number) => new Date(start + ms);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'charts-test', poolSize: 2 });
    for (const [index, received] of [1_000, 12_000, 25_000, 26_000].entries())
      await dataSource.query(
        `INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, received_at)
         VALUES (gen_random_uuid(), 'shop', $1, 'shop.order.placed.v1', 'ord_1', repeat('0', 64), '{}', $2)`,
        [`msg_${index}`, at(received)],
      );
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await dataSource.destroy();
    await database.drop();
  });

  async function runAt(nowMs: number) {
    jest.spyOn(Date, 'now').mockReturnValue(start + nowMs);
    const settings = {
      intervalMs: interval,
      retentionMinutes: 180,
      samplers: CHART_SAMPLERS,
      lag: async () => new Map([['ledger', 7]]),
    };
    return sampleSlots(dataSource.manager, settings, logger);
  }

  const points = async (metric: string) =>
    (await new OpsSamplesRepository(dataSource.manager).since(10))
      .filter((row) => row.metric === metric)
      .map((row) => [row.at.getTime() - start, row.series, row.value]);

  it('samples the last complete slot, and fills the rates of the slots a late run missed', async () => {
    await runAt(11_500);
    expect(await points('accepted')).toEqual([[10_000, '', 0.1]]);

    await runAt(41_500);
    expect(await points('accepted')).toEqual([
      [10_000, '', 0.1],
      [20_000, '', 0.1],
      [30_000, '', 0.2],
      [40_000, '', 0],
    ]);
    // Levels are read now: only the newest slot of this run has them.
    expect(await points('lag')).toEqual([
      [10_000, 'ledger', 7],
      [40_000, 'ledger', 7],
    ]);
    expect(await points('backlog')).toEqual([
      [10_000, '', 0],
      [40_000, '', 0],
    ]);

    // A second instance in the same slot finds nothing left to sample.
    expect(await runAt(42_000)).toMatchObject({ points: 0 });
  });
});
