import { OutboxRow } from '@app/outbox';
import { chunkBySize, publishInOrder } from './publish-in-order';

class TooLarge extends Error {}

function row(id: number, key: string, value = 'v', lane = 0): OutboxRow {
  return { id: String(id), lane, eventId: `e${id}`, topic: 't', key, value, headers: {}, createdAt: new Date(0) };
}

const ids = (rows: OutboxRow[]) => rows.map((r) => Number(r.id));

describe('publishInOrder', () => {
  const options = { maxRequestBytes: 10_000, isPermanent: (error: unknown) => error instanceof TooLarge };

  /** A broker that rejects any request holding a value longer than 1000 bytes, and records what it accepted. */
  function broker() {
    const accepted: OutboxRow[] = [];
    const send = async (rows: OutboxRow[]) => {
      if (rows.some((r) => r.value.length > 1000)) throw new TooLarge('message too large');
      accepted.push(...rows);
    };
    return { accepted, send };
  }

  it('publishes everything in id order when the broker accepts it', async () => {
    const { accepted, send } = broker();
    const rows = [1, 2, 3, 4].map((id) => row(id, `k${id % 2}`));
    const outcome = await publishInOrder(rows, send, options);
    expect(ids(outcome.published)).toEqual([1, 2, 3, 4]);
    expect(ids(accepted)).toEqual([1, 2, 3, 4]);
  });

  it('parks only the poison row, holds later rows of its key, and publishes the rest in order', async () => {
    const { accepted, send } = broker();
    const rows = [
      row(1, 'a'),
      row(2, 'b'),
      row(3, 'a', 'x'.repeat(2000)),
      row(4, 'b'),
      row(5, 'a'),
      row(6, 'c'),
      row(7, 'a', 'y', 1),
    ];
    const outcome = await publishInOrder(rows, send, options);
    expect(ids(outcome.parked.map((r) => r.row))).toEqual([3]);
    expect(ids(outcome.held)).toEqual([5]);
    expect(ids(outcome.published).sort((a, b) => a - b)).toEqual([1, 2, 4, 6, 7]);
    expect(ids(accepted)).toEqual(ids(outcome.published));
    // order of each key among what was sent
    for (const key of ['a', 'b', 'c']) {
      const sent = ids(accepted.filter((r) => r.key === key));
      expect(sent).toEqual([...sent].sort((x, y) => x - y));
    }
  });

  it('lets a transient error through, so that the caller rolls back', async () => {
    const failing = async () => {
      throw new Error('broker unreachable');
    };
    await expect(publishInOrder([row(1, 'a')], failing, options)).rejects.toThrow('broker unreachable');
  });

  it('cuts requests by size and sends a row larger than the limit alone', () => {
    const rows = [
      row(1, 'a', 'x'.repeat(400)),
      row(2, 'a', 'x'.repeat(400)),
      row(3, 'a', 'x'.repeat(5000)),
      row(4, 'a'),
    ];
    expect(chunkBySize(rows, 1000).map(ids)).toEqual([[1, 2], [3], [4]]);
  });
});
