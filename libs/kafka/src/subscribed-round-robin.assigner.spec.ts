import { assignSubscribed } from './subscribed-round-robin.assigner';

describe('assignSubscribed', () => {
  const partitions = (counts: Record<string, number>) => (topic: string) =>
    Array.from({ length: counts[topic] ?? 0 }, (_, index) => index);

  it("gives a topic's partitions only to its subscribers, whoever else is in the group", () => {
    const assignment = assignSubscribed(
      [
        { memberId: 'old', topics: ['a.dlt'] },
        { memberId: 'new', topics: ['a.dlt', 'b.dlt'] },
      ],
      partitions({ 'a.dlt': 3, 'b.dlt': 3 }),
    );
    expect(assignment.get('new')!['b.dlt']).toEqual([0, 1, 2]);
    expect(assignment.get('old')!['b.dlt']).toBeUndefined();
    const a = [...(assignment.get('old')!['a.dlt'] ?? []), ...(assignment.get('new')!['a.dlt'] ?? [])].sort();
    expect(a).toEqual([0, 1, 2]);
    // Balanced over what each may take: the one who cannot read b gets most of a.
    expect(assignment.get('old')!['a.dlt']).toHaveLength(3);
  });

  it('spreads the partitions of a common topic evenly, and gives a member with nothing to read an empty assignment', () => {
    const assignment = assignSubscribed(
      [
        { memberId: 'm2', topics: ['t'] },
        { memberId: 'm1', topics: ['t'] },
        { memberId: 'idle', topics: ['gone'] },
      ],
      partitions({ t: 5 }),
    );
    expect(assignment.get('m1')).toEqual({ t: [0, 2, 4] });
    expect(assignment.get('m2')).toEqual({ t: [1, 3] });
    expect(assignment.get('idle')).toEqual({});
  });
});
