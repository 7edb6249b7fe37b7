import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { orderEvent } from '@app/testing';
import { needsTriage, readTriage, triagePrompt } from './order-triage.prompt';

const withNote = (note?: string) => orderEvent('ord-1', { data: { note } }) as CloudEvent<OrderFieldsV1>;

describe('order triage prompt', () => {
  it('needs the model only for a note with text in it', () => {
    expect(needsTriage(withNote('gift wrap please'))).toBe(true);
    expect(needsTriage(withNote('   '))).toBe(false);
    expect(needsTriage(withNote(undefined))).toBe(false);
  });

  it('asks with a system message and the order with its note', () => {
    const [system, user] = triagePrompt(withNote('leave it with the neighbour'));
    expect(system).toMatchObject({ role: 'system', content: expect.stringContaining('"category"') });
    expect(user).toEqual({
      role: 'user',
      content: 'Order ord-1 (2 × book; 4200 EUR in minor units).\nNote: leave it with the neighbour',
    });
  });

  it('keeps the JSON the model was asked for, and the raw answer when it is not JSON', () => {
    expect(readTriage({ model: 'm', content: '{"category":"gift","summary":"wrap it"}' })).toEqual({
      model: 'm',
      category: 'gift',
      summary: 'wrap it',
      content: '{"category":"gift","summary":"wrap it"}',
    });
    expect(readTriage({ model: 'm', content: 'It is a gift.' })).toEqual({
      model: 'm',
      category: null,
      summary: null,
      content: 'It is a gift.',
    });
  });
});
