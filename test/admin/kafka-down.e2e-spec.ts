import { freePort } from '@app/testing';
import { Ingress, startIngress } from '../ingress/ingress-harness';

/** With the brokers down, the admin API says Kafka is what does not answer, and what needs only Postgres still works. */
const ADMIN_TOKEN = 'admin-token-for-the-kafka-down-test';

describe('the admin API while Kafka does not answer', () => {
  let ingress: Ingress;
  let brokers: string;

  beforeAll(async () => {
    brokers = `127.0.0.1:${await freePort()}`;
    ingress = await startIngress({ KAFKA_BROKERS: brokers, ADMIN_TOKEN });
  });

  afterAll(() => ingress.close());

  const admin = (route: string) =>
    fetch(`${ingress.adminUrl}/admin/${route}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  it('answers GET /admin/lag with 503 kafka_unavailable naming KAFKA_BROKERS, not the database', async () => {
    const response = await admin('lag');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = await response.json();
    expect(body).toMatchObject({
      error: 'kafka_unavailable',
      message: expect.stringContaining(`KAFKA_BROKERS=${brokers}`),
    });
  });

  it('keeps answering what needs only Postgres', async () => {
    expect((await admin('backlog')).status).toBe(200);
    const groups = await admin('consumer-groups');
    expect(groups.status).toBe(200);
  });
});
