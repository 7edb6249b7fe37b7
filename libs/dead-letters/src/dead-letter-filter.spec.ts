import { filterSql, InvalidFilterError, parseFilter, parseTime } from './dead-letter-filter';

describe('dead-letter filters', () => {
  const id = '6f1c1a52-0a43-4f0e-9d59-4d0a1d3c2b11';

  it('parses strings into a checked filter and numbers its SQL parameters', () => {
    const filter = parseFilter({
      group: 'ledger',
      errorClass: 'TypeError',
      since: '2026-11-01T00:00:00Z',
      ids: `${id}, ${id}`,
    });
    expect(filter).toEqual({
      ids: [id, id],
      group: 'ledger',
      errorClass: 'TypeError',
      since: new Date('2026-11-01T00:00:00Z'),
    });
    expect(filterSql(filter, 3)).toEqual({
      where: `id = ANY($3::uuid[]) AND "group" = $4 AND error_class = $5 AND dead_at >= $6`,
      params: [[id, id], 'ledger', 'TypeError', new Date('2026-11-01T00:00:00Z')],
    });
  });

  it('matches everything when empty', () => {
    expect(filterSql({})).toEqual({ where: 'TRUE', params: [] });
  });

  it('reads durations back from now', () => {
    expect(parseTime('2h', 10_000_000)).toEqual(new Date(10_000_000 - 2 * 3600 * 1000));
    expect(parseTime('yesterday')).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(() => parseFilter({ id: 'nope' })).toThrow(
      new InvalidFilterError('"nope" is not a dead-letter id (a UUID)'),
    );
    expect(() => parseFilter({ status: 'alive' })).toThrow(/status must be one of dead, replaying, resolved, purged/);
    expect(() => parseFilter({ until: 'soon' })).toThrow(/until "soon" is neither an ISO time nor a duration/);
  });
});
