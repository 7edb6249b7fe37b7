import { redactedBodyPrefix } from './redacted-body';

const body = (text: string) => Buffer.from(text, 'utf8');

describe('the body prefix kept of a rejected delivery', () => {
  it('redacts secret-looking fields of a JSON body at any depth, keeping the rest', () => {
    const json = JSON.stringify({
      type: 'shop.order.placed.v1',
      data: { orderId: 'ord_1', customer: { password: 'hunter2', apiKey: 'k_live_1' }, cards: [{ cvc: '123' }] },
      client_secret: 'pi_secret_9',
      accessToken: 'tok_1',
    });
    const kept = redactedBodyPrefix(body(json), 1000);
    expect(JSON.parse(kept)).toEqual({
      type: 'shop.order.placed.v1',
      data: { orderId: 'ord_1', customer: { password: '[redacted]', apiKey: '[redacted]' }, cards: '[redacted]' },
      client_secret: '[redacted]',
      accessToken: '[redacted]',
    });
    for (const secret of ['hunter2', 'k_live_1', '123"', 'pi_secret_9', 'tok_1']) expect(kept).not.toContain(secret);
  });

  it('redacts name=value and "name": value pairs of a body that is not JSON, or is cut', () => {
    const form = 'order=ord_1&token=abc123&api_key=xyz&note=fine';
    expect(redactedBodyPrefix(body(form), 1000)).toBe('order=ord_1&token=[redacted]&api_key=[redacted]&note=fine');
    const broken = '{"orderId": "ord_1", "secret": "s3cr3t", "password": "p@ss"';
    const kept = redactedBodyPrefix(body(broken), 1000);
    expect(kept).not.toContain('s3cr3t');
    expect(kept).not.toContain('p@ss');
    expect(kept).toContain('"orderId": "ord_1"');
  });

  it('keeps at most the prefix, marks the cut, and keeps nothing of an empty body', () => {
    expect(redactedBodyPrefix(body(JSON.stringify({ note: 'x'.repeat(5000) })), 100)).toHaveLength(101);
    expect(redactedBodyPrefix(body('x'.repeat(200_000)), 100)).toBe(`${'x'.repeat(100)}…`);
    expect(redactedBodyPrefix(undefined, 100)).toBe('');
    expect(redactedBodyPrefix(Buffer.alloc(0), 100)).toBe('');
  });

  it('redacts a large body read as text', () => {
    const large = `{"token": "tok_secret_1", "pad": "${'y'.repeat(100_000)}"}`;
    expect(redactedBodyPrefix(body(large), 50)).toBe(`{"token": [redacted], "pad": "${'y'.repeat(20)}…`);
  });
});
