// npm run webhook:send [-- <type> [orderId]] — send one Standard Webhooks delivery, signed with SHOP_WEBHOOK_SECRET
// (unset: the one npm start keeps in its development profile), to the local ingress's "shop" source, and print the
// answer. INGRESS_URL defaults to http://127.0.0.1:3000. Exits 0 when the ingress took it (2xx), 1 when it refused it
// or could not be reached (saying why), 2 when the secret is missing or malformed (nothing is sent).
import { developmentEnvFile, findRepoRoot, withDevelopmentEnv } from '@app/config';
import { DEFAULT_DATABASE_URL } from '@app/db';
import { WEBHOOK_SECRET_FORMAT, webhookSecretProblem } from '@app/webhooks';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

class UsageError extends Error {}

async function main(): Promise<number> {
  const env = withDevelopmentEnv(process.env, developmentEnvFile(process.env, findRepoRoot()), DEFAULT_DATABASE_URL);
  const secret = env.SHOP_WEBHOOK_SECRET;
  if (!secret)
    throw new UsageError(
      'set SHOP_WEBHOOK_SECRET to the secret the ingress was started with (npm start keeps its own in .hookrail/dev.env)',
    );
  const problem = webhookSecretProblem(secret);
  if (problem)
    throw new UsageError(
      `SHOP_WEBHOOK_SECRET is not a Standard Webhooks signing secret: ${problem}; a valid one is ${WEBHOOK_SECRET_FORMAT}`,
    );
  const [type = 'shop.order.placed.v1', orderId = `ord_${randomBytes(4).toString('hex')}`] = process.argv.slice(2);
  const body = JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    // The shop the order belongs to: the example source's customerIdPath, which outbound webhooks route by.
    shop: { id: 'shop_lovelace' },
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
  const ingressUrl = env.INGRESS_URL ?? 'http://127.0.0.1:3000';
  const url = `${ingressUrl}/webhooks/shop`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, now, body),
      },
      body,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `nothing answers at INGRESS_URL=${ingressUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}); is the ingress running (npm start)?`,
    );
  }
  const text = await response.text();
  // What was sent (its type and order, to follow it with curl or the CLI), then the answer.
  const sent = JSON.stringify({ type, orderId });
  console.log(`POST ${url} (webhook-id ${id}) ${sent} → ${response.status} ${text}`);
  if (response.ok) return 0;
  console.error(`webhook:send: ${refusal(response, text)}`);
  return 1;
}

/** What a refusal means, in the ingress's own words (its `error` and `message`) and what to do about it. */
function refusal(response: Response, text: string): string {
  let answer: { error?: string; message?: string } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // not the ingress's JSON problem: the status says it all
  }
  const said = answer.message ? `: ${answer.message}` : '';
  const retryAfter = response.headers.get('retry-after');
  switch (response.status) {
    case 401:
      return 'the ingress refused the signature (401): SHOP_WEBHOOK_SECRET is not a secret of its "shop" source; use the one the ingress was started with (npm start prints it)';
    case 404:
      return `the ingress has no "shop" source (404${said}); its HOOKRAIL_SOURCES file must name one`;
    case 429:
    case 503:
      return `the ingress cannot take webhooks right now (${response.status} ${answer.error ?? ''}${said})${retryAfter ? `; try again in ${retryAfter} s` : '; try again shortly'}`;
    default:
      return `the ingress refused the webhook (${response.status} ${answer.error ?? response.statusText}${said})`;
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`webhook:send: ${error.message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
