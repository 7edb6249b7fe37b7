import { Reservation, StockBook } from './stock-book';

const reserved = (sagaId: string, lines: Reservation['lines']): Reservation => ({
  sagaId,
  orderId: `ord-${sagaId}`,
  status: 'reserved',
  lines,
  reason: null,
});

describe('StockBook: one transaction’s commands applied in memory, in turn', () => {
  it('takes units for each reservation in order, and refuses the one that finds too few, naming each short SKU', () => {
    const book = new StockBook(
      new Map(),
      new Map([
        ['apple', 3],
        ['pear', 1],
      ]),
    );
    expect(book.reserve('s1', 'o1', [{ sku: 'apple', quantity: 2 }])).toEqual({ reserved: true });
    expect(
      book.reserve('s2', 'o2', [
        { sku: 'apple', quantity: 2 },
        { sku: 'pear', quantity: 1 },
      ]),
    ).toEqual({ reserved: false, reason: 'out of stock: apple (2 wanted, 1 available)' });
    expect(book.reserve('s3', 'o3', [{ sku: 'pear', quantity: 1 }])).toEqual({ reserved: true });

    const { added, changed, stock } = book.changes();
    expect(added.map((row) => [row.sagaId, row.status, row.lines.length])).toEqual([
      ['s1', 'reserved', 1],
      ['s2', 'refused', 0],
      ['s3', 'reserved', 1],
    ]);
    expect(changed).toEqual([]);
    // All or none: the refused reservation took no pear.
    expect(stock).toEqual(
      new Map([
        ['apple', 1],
        ['pear', 0],
      ]),
    );
  });

  it('answers a saga that has a reservation from it, whether it was there before or made earlier in the batch', () => {
    const refused: Reservation = { ...reserved('old', []), status: 'refused', reason: 'out of stock: fig' };
    const book = new StockBook(
      new Map([
        ['old', refused],
        ['kept', reserved('kept', [{ sku: 'fig', quantity: 1 }])],
      ]),
      new Map([['fig', 5]]),
    );
    expect(book.reserve('old', 'o', [{ sku: 'fig', quantity: 1 }])).toEqual({
      reserved: false,
      reason: 'out of stock: fig',
    });
    expect(book.reserve('kept', 'o', [{ sku: 'fig', quantity: 1 }])).toEqual({ reserved: true });
    expect(book.reserve('new', 'o', [{ sku: 'fig', quantity: 1 }])).toEqual({ reserved: true });
    expect(book.reserve('new', 'o', [{ sku: 'fig', quantity: 1 }])).toEqual({ reserved: true });
    expect(book.changes().stock).toEqual(new Map([['fig', 4]]));
    expect(book.changes().changed).toEqual([]);
  });

  it('gives a reservation back once, and refuses a reserve that comes after a release', () => {
    const book = new StockBook(
      new Map([['held', reserved('held', [{ sku: 'kiwi', quantity: 2 }])]]),
      new Map([['kiwi', 0]]),
    );
    book.release('held', 'ord-held');
    book.release('held', 'ord-held');
    book.release('early', 'ord-early');
    expect(book.reserve('early', 'ord-early', [{ sku: 'kiwi', quantity: 1 }])).toEqual({
      reserved: false,
      reason: 'released before it was reserved',
    });
    // Units given back in this transaction are there for the next command of it.
    expect(book.reserve('later', 'ord-later', [{ sku: 'kiwi', quantity: 2 }])).toEqual({ reserved: true });

    const { added, changed, stock } = book.changes();
    expect(changed).toEqual([{ ...reserved('held', [{ sku: 'kiwi', quantity: 2 }]), status: 'released' }]);
    expect(added.map((row) => [row.sagaId, row.status])).toEqual([
      ['early', 'released'],
      ['later', 'reserved'],
    ]);
    expect(stock).toEqual(new Map([['kiwi', 0]]));
  });

  it('refuses a SKU without a row (no units), and fails on one it was not given', () => {
    const book = new StockBook(new Map(), new Map([['ghost', 0]]));
    expect(book.reserve('s', 'o', [{ sku: 'ghost', quantity: 1 }])).toEqual({
      reserved: false,
      reason: 'out of stock: ghost (1 wanted, 0 available)',
    });
    expect(() => book.reserve('t', 'o', [{ sku: 'unlocked', quantity: 1 }])).toThrow(
      'SKU unlocked was not locked when this transaction’s stock was read',
    );
  });
});
