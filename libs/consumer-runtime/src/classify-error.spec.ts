import { MalformedRecordError } from '@app/contracts';
import { classifyError, dependencyOf, errorClassName, retryAfterOf } from './classify-error';
import { DependencyUnavailableError, EventValidationError, PermanentError } from './errors';

describe('classifyError', () => {
  it('calls malformed records, schema violations and declared permanent errors poison', () => {
    expect(classifyError(new MalformedRecordError('value is not JSON'))).toBe('poison');
    expect(
      classifyError(
        new EventValidationError('shop.order.placed.v1', [
          { field: 'amount', errors: ['amount must not be less than 0'] },
        ]),
      ),
    ).toBe('poison');
    expect(classifyError(new PermanentError('unknown order'))).toBe('poison');
  });

  it("lets a handler's policy declare its own permanent errors", () => {
    class InsufficientFunds extends Error {}
    expect(classifyError(new InsufficientFunds(), (error) => error instanceof InsufficientFunds)).toBe('poison');
    expect(classifyError(new Error('timeout'), (error) => error instanceof InsufficientFunds)).toBe('transient');
  });

  it("calls our database being down unavailable, not the message's fault", () => {
    expect(
      classifyError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe('unavailable');
    expect(
      classifyError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
    ).toBe('unavailable');
  });

  it('calls a deadlock or a serialization failure a conflict, also as TypeORM wraps it', () => {
    expect(classifyError(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe('conflict');
    expect(
      classifyError(Object.assign(new Error('could not serialize access'), { driverError: { code: '40001' } })),
    ).toBe('conflict');
    expect(classifyError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe('transient');
  });

  it('calls a down dependency by its name, and a Kafka produce that gave up the dependency "kafka"', () => {
    const down = new DependencyUnavailableError('email-provider', 'email-provider answered 503', 5000);
    expect(classifyError(down)).toBe('dependency');
    expect(dependencyOf(down)).toBe('email-provider');
    expect(retryAfterOf(down)).toBe(5000);
    const produceFailed = Object.assign(new Error('Number of retries exceeded'), {
      name: 'KafkaJSNumberOfRetriesExceeded',
      retriable: false,
    });
    expect(classifyError(produceFailed)).toBe('dependency');
    expect(dependencyOf(produceFailed)).toBe('kafka');
    const tooLarge = Object.assign(new Error('message too large'), { name: 'KafkaJSProtocolError', retriable: false });
    expect(classifyError(tooLarge)).toBe('transient');
    expect(dependencyOf(new Error('503 from partner'))).toBeUndefined();
  });

  it('calls everything else transient, thrown non-errors included', () => {
    expect(classifyError(new Error('503 from partner'))).toBe('transient');
    expect(classifyError('a string')).toBe('transient');
  });

  it('names the error class for dead letters', () => {
    expect(errorClassName(new TypeError('x'))).toBe('TypeError');
    expect(errorClassName(new PermanentError('x'))).toBe('PermanentError');
    class CustomFailure extends Error {}
    expect(errorClassName(new CustomFailure('x'))).toBe('CustomFailure');
    expect(errorClassName(42)).toBe('number');
  });
});
