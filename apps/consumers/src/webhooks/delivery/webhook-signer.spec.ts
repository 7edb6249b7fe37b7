import { Webhook } from 'standardwebhooks';
import { WebhookSigner } from './webhook-signer';

describe('WebhookSigner', () => {
  const oldSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
  const newSecret = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
  const event = {
    id: 'evt-1',
    producerId: null,
    type: 'shop.order.placed.v1',
    source: '/webhooks/shop',
    time: new Date(),
    subject: 'ord_1',
  };
  const payload = '{"orderId":"ord_1"}';

  it('signs with every active secret, so a receiver holding either one verifies', () => {
    const headers = new WebhookSigner().headers(event, payload, [newSecret, oldSecret], new Date());
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(payload, headers)).toEqual({ orderId: 'ord_1' });
    expect(new Webhook(newSecret).verify(payload, headers)).toEqual({ orderId: 'ord_1' });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 3).toString('base64')}`).verify(payload, headers)).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(oldSecret).verify(`${payload} `, headers)).toThrow('No matching signature found');
  });

  it("signs as the reference library does, byte for byte, whatever the payload's characters and the key's bytes", () => {
    const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i * 7)).toString('base64')}`;
    const unicode = '{"note":"café — 東京 €","emoji":"🦀"}';
    const now = new Date(Math.floor(Date.now() / 1000) * 1000 + 999); // the timestamp is in whole seconds, floored
    const headers = new WebhookSigner().headers(event, unicode, [secret], now);
    expect(secret).toMatch(/[+/]/);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(event.id, now, unicode));
    expect(new Webhook(secret).verify(unicode, headers)).toEqual(JSON.parse(unicode));
  });

  it('sends the CloudEvents attributes as ce-* headers, percent-encoding what is not printable ASCII', () => {
    const headers = new WebhookSigner().headers(
      { ...event, source: '/sources/café "x" 100%' },
      payload,
      [oldSecret],
      event.time,
    );
    expect(headers).toMatchObject({
      'ce-specversion': '1.0',
      'ce-id': 'evt-1',
      'ce-hookrailid': 'evt-1',
      'ce-type': 'shop.order.placed.v1',
      'ce-source': '/sources/caf%C3%A9 %22x%22 100%25',
      'ce-subject': 'ord_1',
      'ce-time': event.time.toISOString(),
      'ce-dataschema': 'urn:hookrail:event:shop.order.placed.v1',
    });
  });

  it("sends a producer's own id as ce-id, hookrail's as ce-hookrailid and webhook-id (unique per event)", () => {
    const headers = new WebhookSigner().headers({ ...event, producerId: 'order 7' }, payload, [oldSecret], event.time);
    expect(headers).toMatchObject({ 'webhook-id': 'evt-1', 'ce-id': 'order 7', 'ce-hookrailid': 'evt-1' });
    expect(new Webhook(oldSecret).verify(payload, headers)).toEqual({ orderId: 'ord_1' });
  });

  it('names no ce-dataschema for a type the catalogue has no contract for', () => {
    const headers = new WebhookSigner().headers(
      { ...event, type: 'crm.account.updated.v1' },
      payload,
      [oldSecret],
      event.time,
    );
    expect(headers).not.toHaveProperty('ce-dataschema');
    expect(headers['ce-type']).toBe('crm.account.updated.v1');
  });
});
