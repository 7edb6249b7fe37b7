import { MalformedRecordError } from '@app/contracts';
import { classifyError, errorClassName } from './classify-error';
import { EventValidationError, PermanentError } from './errors';

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
