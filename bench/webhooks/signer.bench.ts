// npm run bench:signer — CPU per outbound signature: hookrail's WebhookSigner (node's HMAC) against the reference
// library's `Webhook.sign` (its JavaScript SHA-256), on the same payload, in the same run. Each side signs
// BENCH_SIGNATURES (200,000) times after a warm-up of a tenth of that; CPU from process.cpuUsage, three rounds.
import 'reflect-metadata';
import { Webhook } from 'standardwebhooks';
import { WebhookSigner } from '../../apps/consumers/src/webhooks/delivery/webhook-signer';

const SIGNATURES = Number(process.env.BENCH_SIGNATURES || 200_000);
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const payload = JSON.stringify({
  orderId: 'ord_123',
  customerId: 'cus_1',
  lines: [{ sku: 'notebook', quantity: 1, unitPrice: 1999 }],
  total: 1999,
  currency: 'EUR',
});
const event = {
  id: '',
  producerId: null,
  type: 'shop.order.placed.v1',
  source: '/webhooks/shop',
  time: new Date(),
  subject: 'ord_123',
};

/** Microseconds of CPU per call of `sign`, after a warm-up. */
function cpuPerCall(sign: (i: number) => unknown): number {
  for (let i = 0; i < SIGNATURES / 10; i++) sign(i);
  const start = process.cpuUsage();
  for (let i = 0; i < SIGNATURES; i++) sign(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / SIGNATURES;
}

function main(): void {
  const signer = new WebhookSigner();
  const reference = new Webhook(secret);
  const now = new Date();
  console.log(`bench:signer: ${SIGNATURES} signatures a side, ${payload.length}-byte payload\n`);
  console.log('| round | WebhookSigner.headers (all headers) | reference Webhook.sign (signature only) | ratio |');
  console.log('|---|---|---|---|');
  for (let round = 1; round <= 3; round++) {
    const ours = cpuPerCall((i) => signer.headers({ ...event, id: `evt-${i}` }, payload, [secret], now));
    const theirs = cpuPerCall((i) => reference.sign(`evt-${i}`, now, payload));
    console.log(`| ${round} | ${ours.toFixed(2)} µs | ${theirs.toFixed(2)} µs | ${(ours / theirs).toFixed(2)} |`);
  }
}

main();
