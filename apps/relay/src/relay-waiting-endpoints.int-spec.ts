import { AppProcess, freePort, KafkaProxy, waitFor } from '@app/testing';
import { relaysStarted, RelayTestBed, startRelay } from './testing/relay-fixtures';

/**
 * A relay waiting for its brokers is up and says so: /metrics, /healthz and /readyz answer, the gauge of each
 * dependency says which one does not answer, and Prometheus sees "up, Kafka unreachable" rather than a dead target.
 */
describe('the relay while it waits for Kafka', () => {
  let bed: RelayTestBed;
  let proxy: KafkaProxy;
  let relay: AppProcess | undefined;
  let base: string;

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-waiting', 1);
    proxy = await KafkaProxy.start();
    base = `http://127.0.0.1:${await freePort()}`;
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await relay?.exited;
    await proxy.stop();
    await bed.stop();
  });

  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`).catch(() => undefined);
    return response && { status: response.status, body: await response.text() };
  };
  const gauge = (dependency: string, value: 0 | 1) =>
    new RegExp(`^hookrail_dependency_up\\{app="relay",dependency="${dependency}"\\} ${value}$`, 'm');

  it('serves its metrics, liveness and readiness naming Kafka, then reports Kafka up once it answers', async () => {
    await proxy.stop();
    relay = startRelay(bed.database.url, { KAFKA_BROKERS: proxy.address, METRICS_PORT: base.split(':')[2] });

    const metrics = await waitFor(
      async () => {
        const answer = await get('/metrics');
        return answer?.status === 200 && gauge('kafka', 0).test(answer.body) ? answer.body : undefined;
      },
      { what: 'hookrail_dependency_up of kafka at 0 on /metrics', timeoutMs: 60_000 },
    );
    expect(metrics).toMatch(gauge('postgres', 1));
    expect(await get('/healthz')).toEqual({ status: 200, body: JSON.stringify({ status: 'ok' }) });
    const readiness = await get('/readyz');
    expect(readiness?.status).toBe(503);
    expect(JSON.parse(readiness!.body)).toEqual({
      status: 'not_ready',
      waitingFor: `Kafka at ${proxy.address} (KAFKA_BROKERS)`,
    });
    expect(relay.logged('relay started')).toBe(false);

    await proxy.resume();
    await relaysStarted([relay]);
    await waitFor(async () => (await get('/readyz'))?.status === 200, { what: '/readyz 200' });
    const after = await get('/metrics');
    expect(after?.body).toMatch(gauge('kafka', 1));
    expect(after?.body).toMatch(gauge('postgres', 1));
    relay.signal('SIGTERM');
    await relay.exited;
  });
});
