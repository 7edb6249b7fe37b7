import { Identity } from '@app/access';
import { StatusReader, statusViewFor } from './status-access';

const webhook = { source: 'shop', scheme: 'standard-webhooks' };
const cloudEvent = { source: '/billing/invoices', scheme: 'cloudevents' };

function token(role: Identity['role'], limits: Partial<Pick<Identity, 'groups' | 'sources'>> = {}): StatusReader {
  return { kind: 'token', bearer: 'hrk_x', identity: { name: 't', role, groups: null, sources: null, ...limits } };
}

describe('statusViewFor', () => {
  it('gives anyone the full view in public mode', () => {
    expect(statusViewFor({ kind: 'anyone' }, webhook)).toEqual({ view: 'full', groups: null });
  });

  it('gives a producer token the sender view of events received through POST /events only', () => {
    expect(statusViewFor({ kind: 'producer' }, cloudEvent)).toEqual({ view: 'sender' });
    expect(statusViewFor({ kind: 'producer' }, webhook)).toBeNull();
    expect(statusViewFor({ kind: 'producer' }, { source: 'shop', scheme: null })).toBeNull();
  });

  it('gives a status token the sender view of its sources, or of every source when it has none', () => {
    expect(statusViewFor(token('status', { sources: ['shop'] }), webhook)).toEqual({ view: 'sender' });
    expect(statusViewFor(token('status', { sources: ['stripe'] }), webhook)).toBeNull();
    expect(statusViewFor(token('status', { sources: ['/billing/invoices'] }), cloudEvent)).toEqual({ view: 'sender' });
    expect(statusViewFor(token('status'), cloudEvent)).toEqual({ view: 'sender' });
  });

  it('gives viewer, operator and admin tokens the full view, limited to the groups of a token that has some', () => {
    expect(statusViewFor(token('viewer'), webhook)).toEqual({ view: 'full', groups: null });
    expect(statusViewFor(token('operator', { groups: ['ledger'] }), cloudEvent)).toEqual({
      view: 'full',
      groups: ['ledger'],
    });
    expect(statusViewFor(token('admin'), cloudEvent)).toEqual({ view: 'full', groups: null });
  });
});
