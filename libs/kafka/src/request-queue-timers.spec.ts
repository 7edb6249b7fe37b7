import { waitFor } from '@app/testing';
import { quietIdleRequestQueues } from './request-queue-timers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;

interface Queue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  maybeThrottle(ms: number): void;
  push(request: object): void;
  destroy(): void;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(): Queue {
  return new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: 'spec:9092',
    logger: silent,
  });
}

/** Whether the queue has a check of its held-back requests scheduled. */
const timerArmed = (q: Queue) => q.throttleCheckTimeoutId !== null;

function request(correlationId: number, sent: number[]): object {
  return {
    entry: {
      correlationId,
      apiKey: 0,
      apiName: 'Produce',
      apiVersion: 3,
      resolve: () => undefined,
      reject: () => undefined,
    },
    expectResponse: false,
    sendRequest: () => sent.push(correlationId),
  };
}

describe('kafkajs request queues, quieted', () => {
  beforeAll(() => quietIdleRequestQueues());

  it('arm no timer when nothing is held back, as after every response', () => {
    const idle = queue();
    idle.checkPendingRequests();
    expect(timerArmed(idle)).toBe(false);
  });

  it('still send a request held back by client-side throttling once the throttle ends', async () => {
    const throttled = queue();
    const sent: number[] = [];
    try {
      throttled.maybeThrottle(50);
      throttled.push(request(1, sent));
      expect(sent).toEqual([]);
      expect(throttled.pending).toHaveLength(1);
      expect(timerArmed(throttled)).toBe(true);
      await waitFor(() => sent.length === 1, { what: 'the held-back request sent' });
      expect(throttled.pending).toHaveLength(0);
      expect(timerArmed(throttled)).toBe(false);
    } finally {
      throttled.destroy();
    }
  });
});
