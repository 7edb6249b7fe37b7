import { createTestTopic, deleteTopics, testKafka } from '@app/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: { checkPendingRequests(): void } };

/** How long a connection is watched at rest: kafkajs 2.2.4 unquieted looks at its queue about once a millisecond. */
const AT_REST_MS = 300;

describe('a Kafka client of hookrail at rest', () => {
  let topic: string;

  beforeAll(async () => {
    topic = await createTestTopic('at-rest');
  });

  afterAll(async () => {
    await deleteTopics([topic]);
  });

  it('is not woken by its connections while it sends nothing', async () => {
    const producer = testKafka('hookrail-at-rest').producer();
    const checks = jest.spyOn(RequestQueue.prototype, 'checkPendingRequests');
    try {
      await producer.connect();
      await producer.send({ topic, messages: [{ key: 'k', value: 'one' }] });
      checks.mockClear();
      await new Promise((resolve) => setTimeout(resolve, AT_REST_MS));
      // Unquieted, each of the producer's connections (bootstrap and broker) checks ~300 times in this window.
      expect(checks.mock.calls.length).toBeLessThan(5);
    } finally {
      checks.mockRestore();
      await producer.disconnect();
    }
  });
});
