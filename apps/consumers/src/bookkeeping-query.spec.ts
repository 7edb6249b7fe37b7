import { IntentBatch } from './bookkeeping-query';

type Intent = { sagaId: string; bad?: boolean };

/** A write that records each statement's intents, answers each saga with its id, and fails on a bad intent. */
function recordingWrite() {
  const statements: string[][] = [];
  const write = async (intents: Intent[]) => {
    statements.push(intents.map((intent) => intent.sagaId));
    if (intents.some((intent) => intent.bad)) throw new Error('bad intent');
    return new Map(intents.map((intent) => [intent.sagaId, `state of ${intent.sagaId}`]));
  };
  return { statements, write };
}

describe('IntentBatch: the intents of records applied at the same time, in one statement', () => {
  it('writes the intents handed over in the same turn in one statement and answers each with its own state', async () => {
    const { statements, write } = recordingWrite();
    const batch = new IntentBatch(write);
    const states = await Promise.all(['a', 'b', 'c'].map((sagaId) => batch.record({ sagaId })));
    expect(states).toEqual(['state of a', 'state of b', 'state of c']);
    expect(statements).toEqual([['a', 'b', 'c']]);
  });

  it('writes one alone when nothing else is waiting, and what arrives during a statement in the next one', async () => {
    const { statements, write } = recordingWrite();
    const batch = new IntentBatch(write);
    const first = batch.record({ sagaId: 'a' });
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batch.record({ sagaId: 'b' }), batch.record({ sagaId: 'c' })];
    await Promise.all([first, ...later]);
    expect(statements).toEqual([['a'], ['b', 'c']]);
  });

  it('never puts two intents of one saga in one statement', async () => {
    const { statements, write } = recordingWrite();
    const batch = new IntentBatch(write);
    await Promise.all(['a', 'b', 'a', 'c'].map((sagaId) => batch.record({ sagaId })));
    expect(statements).toEqual([
      ['a', 'b'],
      ['a', 'c'],
    ]);
  });

  it('fails only the intent at fault: a failed shared statement is written again one intent at a time', async () => {
    const { statements, write } = recordingWrite();
    const batch = new IntentBatch(write);
    const results = await Promise.allSettled([
      batch.record({ sagaId: 'a' }),
      batch.record({ sagaId: 'b', bad: true }),
      batch.record({ sagaId: 'c' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(statements).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
  });

  it('fails an intent whose statement returned no row for it', async () => {
    const batch = new IntentBatch(async () => new Map<string, string>());
    await expect(batch.record({ sagaId: 'a' })).rejects.toThrow('the intent statement returned no row for saga a');
  });
});
