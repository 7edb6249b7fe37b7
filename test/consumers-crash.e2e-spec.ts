import { AppProcess, cleanEnv, committedOffsets, freePort, orderEvent, produce, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../apps/consumers/src/testing/consumers-fixtures';

describe('consumers process killed between the database commit and the offset commit', () => {
  let bed: ConsumersTestBed;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('consumers-crash', 'ledger');
  });

  afterAll(async () => {
    await bed.stop();
  });

  it('absorbs the redelivery after kill -9: exactly one ledger entry', async () => {
    const metricsPort = await freePort();
    const env = bed.processEnv({ METRICS_PORT: String(metricsPort) });
    const doomed = AppProcess.start('consumers', cleanEnv({ ...env, HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS: '1' }));
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash');
    await produce(bed.kafka, bed.topic, [event]);

    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const entries = () => bed.dataSource.query(`SELECT event_id FROM ledger_entries WHERE event_id = $1`, [event.id]);
    expect(await entries()).toHaveLength(1);
    expect(await committedOffsets(bed.kafka, `${bed.namespace}ledger`, bed.topic)).toEqual([-1]);

    const survivor = AppProcess.start('consumers', cleanEnv(env));
    try {
      await waitFor(async () => (await committedOffsets(bed.kafka, `${bed.namespace}ledger`, bed.topic))[0] === 1, {
        what: 'the redelivered offset committed',
        timeoutMs: 40_000,
      });
      await survivor.waitForLog('consumers started');
      expect(await entries()).toHaveLength(1);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/hookrail_consumer_duplicates_total\{group="ledger",type="shop.order.placed.v1"\} 1/);
      expect(metrics).not.toMatch(/hookrail_consumer_processed_total\{group="ledger"/);
    } finally {
      survivor.signal('SIGTERM');
    }
    const exit = await survivor.exited;
    expect({ ...exit, stderr: survivor.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
