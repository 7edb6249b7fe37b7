import { summarizeLag } from './lag-summary';

describe('summarizeLag', () => {
  const row = (groupId: string, topic: string, partition: number, lag: number) => ({
    groupId,
    worksBy: 'batch',
    topic,
    partition,
    lag,
  });

  it('folds the partitions of each group and topic into one line: their sum, the worst partition and its lag', () => {
    expect(
      summarizeLag([
        row('ledger', 'shop.orders', 0, 3),
        row('ledger', 'shop.orders', 1, 7),
        row('ledger', 'ledger.replay', 0, 0),
        row('notifier', 'shop.orders', 0, 0),
        row('ledger', 'shop.orders', 2, 7),
      ]),
    ).toEqual([
      {
        groupId: 'ledger',
        worksBy: 'batch',
        topic: 'shop.orders',
        partitions: 3,
        lag: 17,
        worstPartition: 1,
        worstLag: 7,
      },
      {
        groupId: 'ledger',
        worksBy: 'batch',
        topic: 'ledger.replay',
        partitions: 1,
        lag: 0,
        worstPartition: 0,
        worstLag: 0,
      },
      {
        groupId: 'notifier',
        worksBy: 'batch',
        topic: 'shop.orders',
        partitions: 1,
        lag: 0,
        worstPartition: 0,
        worstLag: 0,
      },
    ]);
  });

  it('gives nothing for no partitions', () => {
    expect(summarizeLag([])).toEqual([]);
  });
});
