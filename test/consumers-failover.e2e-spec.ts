import { toKafkaRecord } from '@app/contracts';
import { AppProcess, committedOffsets, orderEvent, TestProcesses, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../apps/consumers/src/testing/consumers-fixtures';

/**
 * Two consumers processes share the ledger's partitions under a steady stream. One is killed with SIGKILL: the broker
 * notices at the end of its session (KAFKA_SESSION_TIMEOUT_MS, 10 s by default; about 11 s from kill to work, as
 * measured by `npm run bench:failover`), and the survivor takes its partitions. A third one then leaves with SIGTERM:
 * it says goodbye to the group, so its partitions move at the survivor's next heartbeat, well within a session.
 */
describe('consumers failover between processes (real child processes, Kafka and Postgres)', () => {
  const PARTITIONS = 4;
  let bed: ConsumersTestBed;
  const processes = new TestProcesses();

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('consumers-failover', 'ledger');
  });

  afterAll(async () => {
    await processes.killAll();
    await bed?.stop();
  });

  const ownedBy = (child: AppProcess): number[] => bed.partitionsHeldBy(child);

  /** How long after `since` every one of `partitions` has a committed offset beyond its value at `since`. */
  const movedAgain = async (partitions: number[], since: number): Promise<number> => {
    const groupId = `${bed.namespace}ledger`;
    const start = await committedOffsets(bed.kafka, groupId, bed.topic);
    await waitFor(
      async () => {
        const now = await committedOffsets(bed.kafka, groupId, bed.topic);
        return partitions.every((partition) => now[partition] > start[partition]);
      },
      { what: `partitions ${partitions.join(', ')} consumed again`, timeoutMs: 60_000, intervalMs: 100 },
    );
    return Date.now() - since;
  };

  it('moves a killed process’s partitions to the survivor within seconds, and a stopped one’s at once', async () => {
    const { KAFKA_SESSION_TIMEOUT_MS: _testBedSession, ...env } = bed.processEnv({
      METRICS_PORT: '0',
      TOPIC_PARTITIONS: String(PARTITIONS),
    });
    const [victim, survivor] = [processes.start('consumers', env), processes.start('consumers', env)];
    await Promise.all([victim.waitForLog('consumers started'), survivor.waitForLog('consumers started')]);

    const producer = bed.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const ids: string[] = [];
    let streaming = true;
    // One order per partition every 100 ms, so that every partition always has work waiting.
    const stream = (async () => {
      while (streaming) {
        const events = Array.from({ length: PARTITIONS }, (_, partition) => orderEvent(`ord-failover-${partition}`));
        ids.push(...events.map((event) => event.id));
        await producer.send({
          topic: bed.topic,
          acks: -1,
          messages: events.map((event, partition) => ({ ...toKafkaRecord(event), partition })),
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    try {
      await waitFor(() => ownedBy(victim).length > 0 && ownedBy(survivor).length > 0, {
        what: 'both processes holding partitions',
        timeoutMs: 45_000,
      });
      await movedAgain([...Array(PARTITIONS).keys()], Date.now());

      const lost = ownedBy(victim);
      victim.signal('SIGKILL');
      const killedAt = Date.now();
      await victim.exited;
      const takeoverMs = await movedAgain(lost, killedAt);
      expect(ownedBy(survivor).sort()).toEqual([...Array(PARTITIONS).keys()]);
      // A generous bound: the session (10 s) plus a rejoin; measured at about 11 s.
      expect(takeoverMs).toBeLessThan(30_000);

      const leaver = processes.start('consumers', env);
      await waitFor(() => ownedBy(leaver).length > 0 && ownedBy(survivor).length < PARTITIONS, {
        what: 'a third process sharing the partitions',
        timeoutMs: 45_000,
      });
      await movedAgain(ownedBy(leaver), Date.now());
      const left = ownedBy(leaver);
      leaver.signal('SIGTERM');
      expect(await leaver.exited).toEqual({ code: 0, signal: null });
      const handoverMs = await movedAgain(left, Date.now());
      // It left the group on its way out: no session timeout to wait for.
      expect(handoverMs).toBeLessThan(10_000);
      process.stdout.write(
        `consumers-failover: kill -9 takeover ${takeoverMs} ms, SIGTERM handover ${handoverMs} ms\n`,
      );
    } finally {
      streaming = false;
      await stream;
      await producer.disconnect();
    }

    // None lost, none applied twice.
    await waitFor(async () => (await bed.committed()) === ids.length, {
      what: 'the stream consumed',
      timeoutMs: 30_000,
    });
    const [{ entries, distinct }] = await bed.dataSource.query(
      `SELECT count(*)::int AS entries, count(DISTINCT event_id)::int AS distinct FROM ledger_entries`,
    );
    expect({ entries, distinct }).toEqual({ entries: ids.length, distinct: ids.length });
  });
});
