import { TopicPartitions } from 'kafkajs';
import { PartitionHolds } from './partition-holds';
import { Failure } from './steps/retry.middleware';

describe('partition holds', () => {
  const calls: string[] = [];
  const consumer = {
    pause: (topics: TopicPartitions[]) => void calls.push(`pause ${topics[0].topic}|${topics[0].partitions[0]}`),
    resume: (topics: TopicPartitions[]) => void calls.push(`resume ${topics[0].topic}|${topics[0].partitions[0]}`),
  };
  const open = new Set<string>();
  let holds: PartitionHolds;

  const failure = (dependency?: string, lastFailureAt = new Date()): Failure => ({
    error: new Error('down'),
    errorClass: dependency ? 'dependency' : 'transient',
    attempts: 1,
    firstFailureAt: lastFailureAt,
    lastFailureAt,
    dependency,
  });

  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    calls.length = 0;
    open.clear();
    holds = new PartitionHolds(consumer, (dependency) => open.has(dependency));
  });

  afterEach(() => {
    holds.clear();
    jest.useRealTimers();
  });

  it('pauses the partition and resumes it when the wait is over; the waiting message gets its failure back', () => {
    const waiting = failure();
    holds.hold({ topic: 'orders', partition: 1, offset: '7', failure: waiting, retryAt: 500 });
    expect(calls).toEqual(['pause orders|1']);
    jest.advanceTimersByTime(499);
    expect(calls).toEqual(['pause orders|1']);
    jest.advanceTimersByTime(1);
    expect(calls).toEqual(['pause orders|1', 'resume orders|1']);
    expect(holds.take('orders', 1, '7')).toBe(waiting);
    expect(holds.take('orders', 1, '7')).toBeUndefined();
  });

  it('forgets a failure when the partition comes back at another message', () => {
    holds.hold({ topic: 'orders', partition: 1, offset: '7', failure: failure(), retryAt: 0 });
    jest.advanceTimersByTime(0);
    expect(holds.take('orders', 1, '9')).toBeUndefined();
  });

  it('keeps a partition whose dependency breaker is open paused until a probe, the close, or its ceiling', () => {
    open.add('email-provider');
    holds.hold({
      topic: 'orders',
      partition: 0,
      offset: '1',
      failure: failure('email-provider', new Date(0)),
      retryAt: 100,
      deadlineAt: 10_000,
    });
    holds.hold({
      topic: 'orders',
      partition: 1,
      offset: '1',
      failure: failure('email-provider', new Date(5)),
      retryAt: 100,
      deadlineAt: 10_000,
    });
    holds.hold({ topic: 'orders', partition: 2, offset: '1', failure: failure('model'), retryAt: 100 });
    jest.advanceTimersByTime(1_000);
    expect(calls.filter((call) => call.startsWith('resume'))).toEqual(['resume orders|2']);
    expect(holds.waitingOn('email-provider')).toEqual(['orders|0', 'orders|1']);

    expect(holds.probe('email-provider')).toBe('orders|0');
    expect(holds.waitingOn('email-provider')).toEqual(['orders|1']);
    expect(holds.release('email-provider')).toBe(1);
    expect(holds.probe('email-provider')).toBeUndefined();
  });

  it('resumes a message at its ceiling even while the breaker is open, for its last attempt', () => {
    open.add('email-provider');
    holds.hold({
      topic: 'orders',
      partition: 0,
      offset: '1',
      failure: failure('email-provider'),
      retryAt: 100,
      deadlineAt: 3_000,
    });
    jest.advanceTimersByTime(2_999);
    expect(calls).toEqual(['pause orders|0']);
    jest.advanceTimersByTime(1);
    expect(calls).toEqual(['pause orders|0', 'resume orders|0']);
  });

  it('survives kafkajs refusing a resume from a timer (its consumer crashed and restarts), and forgets the hold', () => {
    const refused: string[] = [];
    const crashed = {
      pause: consumer.pause,
      resume: () => {
        throw new Error('Consumer group was not initialized, consumer#run must be called first');
      },
    };
    holds = new PartitionHolds(
      crashed,
      () => false,
      (action, topic, partition) => refused.push(`${action} ${topic}|${partition}`),
    );
    holds.hold({ topic: 'orders', partition: 2, offset: '9', failure: failure(), retryAt: 100 });
    expect(() => jest.advanceTimersByTime(100)).not.toThrow();
    expect(refused).toEqual(['resume orders|2']);
    expect(holds.take('orders', 2, '9')).toBeUndefined();
  });

  it('after a rebalance, forgets and unpauses the partitions this member lost', () => {
    holds.hold({ topic: 'orders', partition: 0, offset: '1', failure: failure(), retryAt: 60_000 });
    holds.hold({ topic: 'orders', partition: 1, offset: '1', failure: failure(), retryAt: 60_000 });
    holds.reassigned({ orders: [1] });
    expect(calls).toEqual(['pause orders|0', 'pause orders|1', 'resume orders|0']);
    expect(holds.take('orders', 0, '1')).toBeUndefined();
    jest.advanceTimersByTime(60_000);
    expect(calls).toEqual(['pause orders|0', 'pause orders|1', 'resume orders|0', 'resume orders|1']);
  });
});
