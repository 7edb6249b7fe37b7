import { SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { orderEvent } from '@app/testing';
import { KafkaMessage } from 'kafkajs';
import { ConsumerMetrics } from './consumer-metrics';
import { DependencyUnavailableError, PermanentError } from './errors';
import { HeldMessage } from './partition-holds';
import { walk, WalkDeps } from './pipeline';
import { GivenUpMessage } from './steps/dead-letter.middleware';
import { CompiledHandler } from './steps/message';
import { readerOf } from './steps/parse-and-validate.middleware';
import { Failure, nextFailure } from './steps/retry.middleware';
import { settle } from './steps/settle.middleware';
import { Attempt, Delivery, Outcome } from './steps/step';

describe('a message walk (parse, retry, dead letter, settle)', () => {
  const handler: CompiledHandler = {
    type: SHOP_ORDER_PLACED_V1,
    handler: async () => {},
    policy: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
  };
  const read = readerOf(new Map([[SHOP_ORDER_PLACED_V1, handler]]));
  const controls = { heartbeat: async () => {}, shouldStop: () => false };

  function setup(deadLetterTaken = true) {
    const held: HeldMessage[] = [];
    const givenUp: Array<{ source: GivenUpMessage; failure: Failure }> = [];
    const logged: Array<string | undefined> = [];
    const metrics = new ConsumerMetrics();
    const deps: WalkDeps = {
      group: 'g',
      metrics,
      retry: { ceilingMs: 60_000, inlineWaitMaxMs: 1_000 },
      hooks: {
        for: () => ({
          recorded: async (failure) => failure,
          decided: () => {},
          recovered: () => {},
          wait: async () => true,
        }),
        log: (source) => void logged.push(source.eventId),
      },
      deadLetters: {
        giveUp: async (source, failure) => {
          givenUp.push({ source, failure });
          return deadLetterTaken ? { done: true } : { done: false, retryAt: 42 };
        },
      },
    };
    const holds = { hold: (message: HeldMessage) => void held.push(message) };
    const processed = async () => (await metrics.processed.get()).values.map(({ value }) => value);
    /** The walk settled as the batch mode settles it (true: the offset may move). */
    const batchWalk = (attempt: Attempt<Outcome>) => settle({ holds })(walk(deps, read, attempt));
    return { deps, held, givenUp, logged, processed, batchWalk };
  }

  function delivery(value: string, headers: Record<string, string>, from?: Delivery['from']): Delivery {
    const message = { key: null, value: Buffer.from(value), headers, offset: '7' } as unknown as KafkaMessage;
    return { topic: 't', partition: 0, message, controls, from };
  }

  const event = orderEvent('ord-1');
  const record = toKafkaRecord(event);

  it('settles an applied event: its offset may move and it counts as processed', async () => {
    const { batchWalk, held, givenUp, processed } = setup();
    const attempts: number[] = [];
    const settle = batchWalk(async (_handled, n): Promise<Outcome> => (attempts.push(n), 'applied'));
    expect(await settle(delivery(record.value, record.headers))).toBe(true);
    expect(attempts).toEqual([1]);
    expect(await processed()).toEqual([1]);
    expect([held, givenUp]).toEqual([[], []]);
  });

  it('dead-letters poison at once, without an attempt', async () => {
    const { batchWalk, givenUp, logged } = setup();
    const settle = batchWalk(() => Promise.reject(new Error('never called')));
    expect(await settle(delivery('{}', { ce_id: 'e-1' }))).toBe(true);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0].source).toMatchObject({ eventId: 'e-1', type: 'unknown', topic: 't', partition: 0 });
    expect(givenUp[0].failure).toMatchObject({ errorClass: 'poison', attempts: 1 });
    expect(logged).toEqual(['e-1']);
  });

  it('carries on the failure from the batch transaction and dead-letters the event after its last attempt', async () => {
    const { batchWalk, givenUp, processed } = setup();
    const attempts: number[] = [];
    const settle = batchWalk(async (_handled, n) => {
      attempts.push(n);
      throw new Error('flaky');
    });
    const from = { failure: nextFailure(undefined, new Error('flaky'), 1, handler.policy), waited: false };
    expect(await settle(delivery(record.value, record.headers, from))).toBe(true);
    expect(attempts).toEqual([2]);
    expect(givenUp.map(({ source }) => source)).toMatchObject([{ eventId: event.id, type: SHOP_ORDER_PLACED_V1 }]);
    expect(await processed()).toEqual([]);
  });

  it('holds the partition, without a failure to carry on, when the dead letter is not taken', async () => {
    const { batchWalk, held } = setup(false);
    const settle = batchWalk(async () => 'applied');
    expect(await settle(delivery('{}', {}))).toBe(false);
    expect(held).toEqual([{ topic: 't', partition: 0, offset: '7', retryAt: 42 }]);
  });

  it('holds the partition with its failure while a dependency is down, and gives nothing up', async () => {
    const { batchWalk, held, givenUp } = setup();
    const settle = batchWalk(() => Promise.reject(new DependencyUnavailableError('email-provider', '503')));
    expect(await settle(delivery(record.value, record.headers))).toBe(false);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ offset: '7', failure: { dependency: 'email-provider', attempts: 1 } });
    expect(held[0].deadlineAt).toBeGreaterThan(Date.now());
    expect(givenUp).toEqual([]);
  });

  it('tries only the dead letter again when the walk carries a failure given up on', async () => {
    const { deps, givenUp } = setup();
    const failure = nextFailure(undefined, new Error('flaky'), 2, handler.policy);
    const settled = await walk(deps, read, () => Promise.reject(new Error('never called')))({
      ...delivery(record.value, record.headers),
      reading: read('t', 0, { ...record, offset: '7' } as unknown as KafkaMessage),
      givingUp: failure,
    });
    expect(settled).toEqual({ kind: 'done', value: 'dead-lettered' });
    expect(givenUp).toEqual([expect.objectContaining({ failure })]);
  });

  it('hands back the failure given up on when its dead letter is not taken', async () => {
    const { deps } = setup(false);
    const settled = await walk(deps, read, async () => {
      throw new PermanentError('bad order');
    })(delivery(record.value, record.headers));
    expect(settled).toMatchObject({ kind: 'waiting', retryAt: 42, givingUp: { errorClass: 'poison' } });
  });

  it('lets a type the group does not handle go by', async () => {
    const { batchWalk, givenUp, processed } = setup();
    const other = toKafkaRecord(orderEvent('ord-2', { type: 'shop.order.paid.v1' }));
    const settle = batchWalk(() => Promise.reject(new Error('never called')));
    expect(await settle(delivery(other.value, other.headers))).toBe(true);
    expect([givenUp, await processed()]).toEqual([[], []]);
  });
});
