import { bearerOf } from './bearer';

describe('bearerOf', () => {
  it('takes the token of a Bearer header, in any case, and nothing else', () => {
    expect(bearerOf('Bearer hrk_abc')).toBe('hrk_abc');
    expect(bearerOf('bearer  hrk_abc  ')).toBe('hrk_abc');
    expect(bearerOf(undefined)).toBeNull();
    expect(bearerOf('Basic dXNlcjpwdw==')).toBeNull();
    expect(bearerOf('Bearer')).toBeNull();
    expect(bearerOf('Bearer two tokens')).toBeNull();
  });
});
