import { receivedHeaders } from './received-headers';

describe('receivedHeaders', () => {
  it('keeps what helps an operator and drops every credential and signature', () => {
    expect(
      receivedHeaders({
        'content-type': 'application/json',
        'user-agent': 'Stripe/1.0',
        'webhook-id': 'msg_1',
        'webhook-timestamp': '1700000000',
        'webhook-signature': 'v1,abc',
        'stripe-signature': 't=1,v1=abc',
        'x-hub-signature-256': 'sha256=abc',
        'x-github-event': 'push',
        authorization: 'Bearer producer-token',
        cookie: 'session=1',
        'x-api-key': 'k',
        'x-custom-token': 't',
        'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      }),
    ).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Stripe/1.0',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'x-github-event': 'push',
    });
  });

  it('cuts long values and keeps at most 64 headers', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`x-h${String(i).padStart(2, '0')}`, 'v']));
    const kept = receivedHeaders({ ...many, 'x-a-long': 'y'.repeat(600) });
    expect(Object.keys(kept)).toHaveLength(64);
    expect(kept['x-a-long']).toHaveLength(513);
  });
});
