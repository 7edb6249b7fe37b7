import fc from 'fast-check';
import { PartitionWindow, WindowEntry } from './partition-window';

describe('PartitionWindow', () => {
  function filled(keys: Array<string | null>, from = 0n): PartitionWindow<string> {
    const window = new PartitionWindow<string>();
    keys.forEach((key, index) => window.add(from + BigInt(index), key, `r${index}`));
    return window;
  }

  it('hands out one record per key, oldest first, and the next of a key only after the one before is done', () => {
    const window = filled(['a', 'b', 'a', 'c', 'b']);
    const started = [window.take(), window.take(), window.take(), window.take()];
    expect(started.map((entry) => entry?.offset)).toEqual([0n, 1n, 3n, undefined]);
    window.complete(started[0]!);
    expect(window.take()?.offset).toBe(2n);
    expect(window.take()).toBeUndefined();
  });

  it('commits up to the lowest record not done, whatever finished after it', () => {
    const window = filled(['a', 'b', 'c']);
    const [a, b, c] = [window.take()!, window.take()!, window.take()!];
    expect(window.committable()).toBe(0n);
    window.complete(c);
    window.complete(b);
    expect(window.committable()).toBe(0n);
    expect(window.size).toBe(3);
    window.complete(a);
    expect(window.committable()).toBe(3n);
    expect(window.size).toBe(0);
  });

  it('lets a waiting key hold only itself, and puts it back before new work when it may run again', () => {
    const window = filled(['slow', 'x', 'y']);
    const slow = window.take()!;
    window.wait(slow);
    const x = window.take()!;
    expect(x.key).toBe('x');
    window.complete(x);
    window.ready(slow);
    expect(window.take()).toBe(slow);
    expect(window.committable()).toBe(0n);
  });

  it('ignores records it holds or committed past (a refetch after a rebalance that kept the partition)', () => {
    const window = filled(['a', 'b']);
    const a = window.take()!;
    window.complete(a);
    expect(window.add(0n, 'a', 'again')).toBeUndefined();
    expect(window.add(1n, 'b', 'again')).toBeUndefined();
    expect(window.add(2n, 'c', 'new')?.item).toBe('new');
    expect(window.size).toBe(2);
  });

  it('runs records without a key each on their own', () => {
    const window = filled([null, null, null]);
    expect([window.take(), window.take(), window.take()].map((entry) => entry?.offset)).toEqual([0n, 1n, 2n]);
  });

  it('finishes a queued record nothing needs doing for, without handing it out', () => {
    const window = filled(['a', null, 'b']);
    const ignored = window.add(3n, null, 'ignored')!;
    window.complete(ignored);
    expect(window.take()?.offset).toBe(0n);
    expect(window.take()?.offset).toBe(1n);
    expect(window.take()?.offset).toBe(2n);
    expect(window.take()).toBeUndefined();
  });

  it('never commits past an unfinished record and keeps each key in offset order, in any interleaving', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', null), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 200 }),
        (keys, choices) => {
          const window = filled(keys);
          const running: WindowEntry<string>[] = [];
          const finished = new Set<bigint>();
          const perKey = new Map<string, bigint[]>();
          for (const choice of [...choices, ...Array<number>(keys.length * 3).fill(0)]) {
            const started = choice % 3 === 0 ? window.take() : undefined;
            if (started) {
              running.push(started);
              perKey.set(started.key, [...(perKey.get(started.key) ?? []), started.offset]);
            } else if (running.length > 0) {
              const [entry] = running.splice(choice % running.length, 1);
              window.complete(entry);
              finished.add(entry.offset);
            }
            const committable = window.committable()!;
            for (let offset = 0n; offset < committable; offset++) expect(finished.has(offset)).toBe(true);
          }
          for (const offsets of perKey.values()) expect([...offsets].sort((x, y) => Number(x - y))).toEqual(offsets);
          expect(window.committable()).toBe(BigInt(keys.length));
        },
      ),
    );
  });
});
