import { Closable } from '@app/config';
import { createLogger } from '@app/logger';
import { deleteTopics, uniqueName, waitFor } from '@app/testing';
import { Browser, chromium, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { loadConsumersConfig } from '../../apps/consumers/src/config/load-consumers-config';
import { startConsumers } from '../../apps/consumers/src/consumers.app';
import { DevWebhookReceiver } from '../../apps/consumers/src/webhooks/dev-receiver/webhook-receiver.server';
import { webhooksEnv } from '../../apps/consumers/src/webhooks/testing/webhooks-fixtures';
import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-portal-test';
const DELIVERY_MS = 20_000;

/**
 * The customer portal on the real admin app's portal listener and Postgres, in headless Chromium on a 390 px phone:
 * a one-time link opens it; the customer adds an endpoint at the development webhook receiver, sends a test event
 * that the consumers' delivery workers really send, sees the delivery and its attempt, sends it again and rotates the
 * secret; the same link then no longer opens anything.
 */
describe('customer portal in headless Chromium', () => {
  let ingress: Ingress;
  let receiver: DevWebhookReceiver;
  let consumers: Closable | undefined;
  let browser: Browser;
  const namespace = `${uniqueName('portal')}.`;
  const requests: string[] = [];

  beforeAll(async () => {
    receiver = await DevWebhookReceiver.start();
    const port = new URL(receiver.url).port;
    const allowReceiver = {
      OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '127.0.0.1',
      OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true',
      OUTBOUND_WEBHOOKS_ALLOW_PORTS: port,
    };
    ingress = await startIngress({ ADMIN_TOKEN, ...allowReceiver });
    [consumers, browser] = await Promise.all([
      startConsumers(
        loadConsumersConfig({
          DATABASE_URL: ingress.database.url,
          KAFKA_BROKERS: process.env.KAFKA_BROKERS,
          CONSUMER_GROUPS: 'webhooks',
          KAFKA_NAMESPACE: namespace,
          METRICS_PORT: '0',
          KAFKA_CREATE_TOPICS: 'true',
          TOPIC_PARTITIONS: '1',
          ...webhooksEnv(allowReceiver),
        }),
        createLogger('consumers', 'silent'),
      ),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await consumers?.close();
    await receiver?.close();
    await ingress?.close();
    await deleteTopics([`${namespace}shop.orders`, `${namespace}webhooks.dlt`, `${namespace}webhooks.replay`]);
  });

  async function admin(method: string, route: string, body?: unknown): Promise<any> {
    const response = await fetch(`${ingress.adminUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
        'x-hookrail-operator': 'portal-test',
      },
      body: JSON.stringify(body ?? {}),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  }

  /** A one-time portal link for a new customer, on the portal listener of this run. */
  async function portalLink(name: string): Promise<string> {
    const customer = await admin('POST', '/admin/customers', { uid: uniqueName('cus'), name });
    const { url } = await admin(
      'POST',
      `/admin/customers/${encodeURIComponent(customer.id ?? customer.uid)}/portal-links`,
    );
    const link = new URL(url);
    return `${ingress.portalUrl}${link.pathname}${link.search}${link.hash}`;
  }

  async function phone(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on('request', (request) => requests.push(request.url()));
    return page;
  }

  /** Where the page is wider than the phone (it must not scroll sideways). */
  const spill = (page: Page) =>
    page.locator('html').evaluate((root) => (root.scrollWidth > root.clientWidth ? `${root.scrollWidth} px` : ''));

  it('opens from a link, manages an endpoint whose test event is delivered and replayed, and refuses the used link', async () => {
    const link = await portalLink('Acme Books');
    expect(link).toMatch(/#link=./);
    const page = await phone();
    await page.goto(link);
    await page.locator('#customer-name', { hasText: 'Acme Books' }).waitFor();
    expect(page.url()).not.toContain('link=');
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['hookrail.portal.session']);
    expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);

    // Add an endpoint at the receiver, subscribed to the first listed event type: its secret is shown once.
    const hookUrl = `${receiver.url}/hooks/portal`;
    await page.fill('#endpoint-url', hookUrl);
    const firstType = page.locator('#event-type-choices input[type=checkbox]').first();
    const eventType = await firstType.getAttribute('value');
    await firstType.check();
    await page.fill('#endpoint-description', 'orders to the test receiver');
    await page.click('#add-endpoint button[type=submit]');
    const secret = (await page.locator('#secret-value', { hasText: /\S/ }).textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const row = page.locator('#endpoints tr[data-id]', { hasText: hookUrl });
    await row.waitFor();
    expect(await row.locator('[data-column=eventTypes]').textContent()).toBe(eventType);
    expect(await row.getAttribute('data-state')).toBe('enabled');
    await page.click('#secret-done');
    expect(await page.isHidden('#secret')).toBe(true);
    expect(await page.textContent('#secret-value')).toBe('');

    // A test event goes out for real, signed with that secret; its delivery and attempt show.
    await row.locator('button[data-action=deliveries]').click();
    await page.locator('#endpoint-detail:not([hidden])').waitFor();
    await page.click('#send-test');
    const delivered = page.locator('#deliveries tr[data-state=delivered]');
    await delivered.waitFor({ timeout: DELIVERY_MS });
    expect(await delivered.count()).toBe(1);
    const first = await waitFor(() => receiver.received.find((webhook) => webhook.path === '/hooks/portal'), {
      what: 'the test webhook at the receiver',
    });
    expect(() =>
      new Webhook(secret).verify(first.body, {
        'webhook-id': first.webhookId,
        'webhook-timestamp': first.webhookTimestamp,
        'webhook-signature': first.webhookSignature,
      }),
    ).not.toThrow();
    await page.locator('#delivery-detail:not([hidden])').waitFor();
    await page.locator('#attempts tbody tr [data-column=status]', { hasText: '200' }).first().waitFor();
    expect(await page.locator('#attempts tbody tr').count()).toBe(1);
    expect(await page.textContent('#attempts tbody tr [data-column=durationMs]')).toMatch(/^\d+ ms$/);

    // Sent again: a second request with the same webhook-id, and a second attempt in the list.
    await page.click('#replay-delivery');
    await waitFor(() => receiver.received.filter((webhook) => webhook.webhookId === first.webhookId).length === 2, {
      timeoutMs: DELIVERY_MS,
      what: 'the replayed webhook',
    });
    await page.locator('#attempts tbody tr:nth-child(2)').waitFor({ timeout: DELIVERY_MS });

    // A rotated secret is shown once, and is a new one.
    await row.locator('button[data-action=rotate]').click();
    await page.click('#confirm-ok');
    const rotated = (await page.locator('#secret-value', { hasText: /\S/ }).textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.click('#secret-done');

    expect(await spill(page)).toBe('');
    await page.close();

    // The link worked once.
    const again = await phone();
    await again.goto(link);
    await again.locator('#no-session:not([hidden])', { hasText: 'already been used' }).waitFor();
    expect(await again.textContent('#no-session')).toContain('Ask your contact for a new link');
    expect(await again.isHidden('#app')).toBe(true);
    expect(again.url()).not.toContain('link=');
    expect(await spill(again)).toBe('');
    await again.close();

    const origin = new URL(ingress.portalUrl).origin;
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  });

  it('says a page opened without a link cannot be used', async () => {
    const page = await phone();
    await page.goto(`${ingress.portalUrl}/portal`);
    await page.locator('#no-session:not([hidden])', { hasText: 'none was given' }).waitFor();
    await page.close();
  });
});
