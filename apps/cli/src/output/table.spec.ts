import { formatFields, formatTable } from './table';

describe('CLI output', () => {
  it('aligns columns, shortens long cells and prints dates without milliseconds', () => {
    const rows = [
      { id: 'a', error: 'x'.repeat(10), at: new Date('2026-11-29T10:00:00.123Z') },
      { id: 'bbbb', error: 'short\nline', at: null },
    ];
    expect(formatTable(rows, ['id', 'error', 'at'], 8)).toBe(
      ['id    error     at', '----  --------  --------', 'a     xxxxxxx…  2026-11…', 'bbbb  short l…'].join('\n'),
    );
    expect(formatTable([], ['id'])).toBe('(none)');
  });

  it('aligns fields', () => {
    expect(formatFields({ id: 1, status: 'dead' })).toBe('id:     1\nstatus: dead');
  });

  it('prints an object or a list as JSON, never as "[object Object]"', () => {
    expect(formatFields({ queue: { pending: 1 }, ids: ['a', 'b'] })).toBe('queue: {"pending":1}\nids:   ["a","b"]');
    expect(formatTable([{ queue: { pending: 1 } }], ['queue'])).toBe('queue\n-------------\n{"pending":1}');
  });
});
