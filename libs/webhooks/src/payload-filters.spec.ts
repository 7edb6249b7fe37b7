import { parsePayloadFilters } from './payload-filters';
import { WebhookInputError } from './webhook-errors';

describe('parsePayloadFilters', () => {
  it('takes null or absent as no filters', () => {
    expect(parsePayloadFilters(null)).toBeNull();
    expect(parsePayloadFilters(undefined)).toBeNull();
  });

  it('keeps valid filters of every value kind, escaped steps included', () => {
    const filters = [
      { path: '/shop/region', equals: 'eu' },
      { path: '/amount', equals: 4200 },
      { path: '/gift', equals: true },
      { path: '/coupon', equals: null },
      { path: '/a~1b/~0c/0', equals: 'x' },
      { path: '/', equals: '' },
    ];
    expect(parsePayloadFilters(filters)).toEqual(filters);
    expect(parsePayloadFilters([])).toEqual([]);
  });

  it.each([
    ['a non-array', { path: '/a', equals: 1 }, 'payloadFilters must be an array'],
    ['more than 10 filters', Array.from({ length: 11 }, () => ({ path: '/a', equals: 1 })), 'at most 10 filters'],
    ['a filter that is no object', ['/a'], 'payloadFilters[0] must be an object'],
    [
      'a path without its leading /',
      [{ path: 'shop/region', equals: 'eu' }],
      'payloadFilters[0].path must be a JSON Pointer',
    ],
    ['an empty path', [{ path: '', equals: 'eu' }], 'payloadFilters[0].path must be a JSON Pointer'],
    ['a bad ~ escape', [{ path: '/a~2', equals: 'eu' }], 'payloadFilters[0].path must be a JSON Pointer'],
    ['a path that is no string', [{ path: 3, equals: 'eu' }], 'payloadFilters[0].path must be a JSON Pointer'],
    ['an object to equal', [{ path: '/a', equals: { b: 1 } }], 'payloadFilters[0].equals must be'],
    ['an array to equal', [{ path: '/a', equals: [1] }], 'payloadFilters[0].equals must be'],
    ['a missing equals', [{ path: '/a' }], 'payloadFilters[0].equals must be'],
    ['an unknown key', [{ path: '/a', equals: 1, op: 'gt' }], 'payloadFilters[0] has unknown keys: op'],
    [
      'the second filter wrong',
      [
        { path: '/a', equals: 1 },
        { path: '/b', equals: NaN },
      ],
      'payloadFilters[1].equals',
    ],
  ])('refuses %s, naming it', (_, value, message) => {
    expect(() => parsePayloadFilters(value)).toThrow(WebhookInputError);
    expect(() => parsePayloadFilters(value)).toThrow(message);
  });
});
