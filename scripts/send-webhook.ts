// npm run webhook:send [-- <type> [orderId]] — send one Standard Webhooks delivery, signed with SHOP_WEBHOOK_SECRET,
// to the local ingress's "shop" source, and print the answer. INGRESS_URL defaults to http://127.0.0.1:3000.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

async function main(): Promise<void> {
  const secret = process.env.SHOP_WEBHOOK_SECRET;
  if (!secret) throw new Error('set SHOP_WEBHOOK_SECRET to the secret the ingress was started with');
  const [type = 'shop.order.placed.v1', orderId = `ord_${randomBytes(4).toString('hex')}`] = process.argv.slice(2);
  const body = JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      orderId,
      customer: { id: 'cus_42', email: 'ada@example.com', name: 'Ada Lovelace' },
      amount: 4200,
      currency: 'EUR',
      lineItems: [{ sku: 'notebook', quantity: 2, unitAmount: 2100 }],
      note: 'Please gift wrap',
      ...(type === 'shop.order.paid.v1'
        ? { paymentId: `pay_${randomBytes(4).toString('hex')}`, paidAt: new Date().toISOString() }
        : {}),
    },
  });
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const now = new Date();
  const url = `${process.env.INGRESS_URL ?? 'http://127.0.0.1:3000'}/webhooks/shop`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, now, body),
    },
    body,
  });
  console.log(`POST ${url} (webhook-id ${id}) → ${response.status} ${await response.text()}`);
}

main().catch((error: Error) => {
  console.error(`webhook:send: ${error.message}`);
  process.exit(1);
});
