import { orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, webhooksEnv } from './testing/webhooks-fixtures';

const MIN_BURSTS = 4;
/**
 * Which process claims a delivery is a race, even with each holding a partition (each wakes its own workers, both
 * claim); bursts go on until both have sent some, up to this many.
 */
const MAX_BURSTS = 12;
const EVENTS_PER_BURST = 40;

describe('outbound webhooks: maxInFlight is exact across processes', () => {
  let bed: ConsumersTestBed;
  let receiver: WebhookReceiver;
  const processes = new TestProcesses();

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-max-in-flight', 'webhooks');
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await processes.killAll();
    await receiver?.close();
    await bed?.stop();
  });

  it('never lets a third request reach an endpoint with maxInFlight 2 under bursts from two consumers processes', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/capped'), {
      eventTypes: ['shop.order.placed.v1'],
      maxInFlight: 2,
    });
    receiver.respond(() => ({ status: 200, delayMs: 20 }));
    // Two partitions: each process consumes one, so both fan out, wake and claim at the same moments.
    const env = bed.processEnv(webhooksEnv({ METRICS_PORT: '0', TOPIC_PARTITIONS: '2' }));
    const both = [processes.start('consumers', env), processes.start('consumers', env)];
    await Promise.all(both.map((child) => child.waitForLog('webhook delivery workers running')));
    // Until the group has rebalanced, the first process to join holds both partitions and is woken for every
    // delivery: a burst sent then could be sent by that process alone.
    await waitFor(() => both.every((child) => bed.partitionsHeldBy(child).length === 1), {
      what: 'each process holding one partition',
      timeoutMs: 60_000,
    });

    const pids = both.map((child) => String(child.child.pid)).sort();
    let senders: string[] = [];
    for (let burst = 0; burst < MAX_BURSTS && (burst < MIN_BURSTS || senders.length < 2); burst++) {
      const events = Array.from({ length: EVENTS_PER_BURST }, (_, i) => orderEvent(`ord-cap-${burst}-${i}`));
      await produce(bed.kafka, bed.topic, events);
      await waitFor(() => events.every((event) => receiver.requestsFor(event.id, '/capped').length > 0), {
        what: `burst ${burst} delivered`,
        timeoutMs: 30_000,
      });
      senders = await sendingProcesses(endpoint.id);
    }

    expect(receiver.peakInFlightAt('/capped')).toBe(2);
    // Both processes sent some of them: the cap held across processes, not because one process did all the work.
    expect(senders).toEqual(pids);
  });

  /** The pids of the processes whose workers made an attempt on the endpoint (a worker is `host/pid`). */
  async function sendingProcesses(endpointId: string): Promise<string[]> {
    const workers: Array<{ worker: string }> = await bed.dataSource.query(
      `SELECT DISTINCT a.worker FROM webhook_delivery_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
      [endpointId],
    );
    return [...new Set(workers.map(({ worker }) => worker.split('/')[1]))].sort();
  }
});
