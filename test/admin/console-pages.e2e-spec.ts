import { saveBreakerState } from '@app/consumer-runtime';
import { connect } from '@app/db';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, chromium, Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';

const ADMIN_TOKEN = 'admin-token-for-the-console-pages-test';
/** Where the screenshots go (CI keeps this folder as an artefact); never inside the repository. */
const SCREENSHOTS = path.join(os.tmpdir(), 'hookrail-console-screenshots');

/**
 * The console's pages for sagas, outbound webhooks, sources, the catalogue and the breakers line, on the real ingress and
 * Postgres in headless Chromium at 1280 px: rows seeded as the coordinator, the webhooks workers and the consumer
 * runtime write them; each confirmed action checked in the database.
 */
describe('console pages for sagas, webhooks, sources, the catalogue and open breakers', () => {
  let ingress: Ingress;
  let db: DataSource;
  let browser: Browser;
  let page: Page;
  const orderId = `ord_console_${randomUUID().slice(0, 8)}`;
  const sagaId = randomUUID();
  const runningSagaId = randomUUID();
  let eventId: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [ingress, browser] = await Promise.all([
      startIngress({ ADMIN_TOKEN, OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' }),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
    ]);
    db = await connect({ url: ingress.database.url, applicationName: 'console-pages-test', poolSize: 2 });
    const body = JSON.stringify({ type: 'shop.order.placed.v1', data: orderData(orderId) });
    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      body,
      standardHeaders(secrets.standard[0], orderId, body),
    );
    expect(accepted).toMatchObject({ status: 202 });
    eventId = String(accepted.body.id);
    await seedSagas();
    await saveBreakerState(db, {
      group: 'notifier',
      dependency: 'email-provider',
      state: 'open',
      since: new Date(Date.now() - 5 * 60_000),
      lastError: 'EmailProviderUnavailableError: email-provider answered 503',
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await db?.destroy();
    await ingress?.close();
  });

  /** The order's saga, failed (its refund was refused), and two others so that failed ones must come first. */
  async function seedSagas() {
    const saga = (id: string, order: string, state: string, step: string, version: number, minutesAgo: number) =>
      db.query(
        `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, deadline, version,
                            data, failure, last_error, updated_at)
         VALUES ($1, 'order-fulfilment', $2, $3, $4, 1, $5, $6, $7, $8, '{}', $9, $10, now() - $11 * interval '1 minute')`,
        [
          id,
          order,
          order === orderId ? eventId : randomUUID(),
          state,
          step,
          state === 'running' ? 1 : 0,
          state === 'running' ? new Date(Date.now() + 60_000) : null,
          version,
          state === 'failed' ? 'undeliverable' : null,
          state === 'failed' ? 'refund refused' : null,
          minutesAgo,
        ],
      );
    await saga(sagaId, orderId, 'failed', 'charge-card', 3, 10);
    await saga(runningSagaId, 'ord_running', 'running', 'reserve-stock', 1, 1);
    await saga(randomUUID(), 'ord_done', 'completed', 'create-shipment', 4, 5);
    const history = [
      ['reserve-stock', 'action', 'started', 'running', null, 'inventory.reserve-stock.v1', null],
      [
        'create-shipment',
        'action',
        'failed',
        'compensating',
        'shipping.shipment-creation-failed.v1',
        'payments.refund-charge.v1',
        'undeliverable',
      ],
      ['charge-card', 'compensation', 'failed', 'failed', 'payments.charge-refund-failed.v1', null, 'refund refused'],
    ];
    for (const [index, row] of history.entries())
      await db.query(
        `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state, cause_type, sent_type, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [sagaId, index + 1, ...row],
      );
  }

  /** A delivery of the order event to the endpoint that failed for good after two attempts. */
  async function seedFailedDelivery(endpointId: string): Promise<string> {
    const [{ id }] = await db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                       source_topic, source_partition, source_offset, state, attempts, next_attempt_at,
                                       last_status, last_error, failed_at, created_at)
       VALUES ($1, $2, 'shop.order.placed.v1', '/sources/shop', now(), $3, '{"orderId":"x"}', 'shop.orders', 0, '12',
               'failed', 2, 'infinity', 503, 'HTTP 503', now(), now())
       RETURNING id`,
      [endpointId, eventId, orderId],
    );
    for (const [attempt, status] of [
      [1, 500],
      [2, 503],
    ])
      await db.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, status, response_body, error, worker)
         VALUES ($1, $2, now(), 35, $3, 'try later', $4, 'host/1/0')`,
        [id, attempt, status, `HTTP ${status}`],
      );
    return String(id);
  }

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** Presses a button, checks what the confirmation says, and confirms or cancels. */
  async function confirmed(button: Locator, says: string | RegExp, answer: 'ok' | 'cancel' = 'ok') {
    await button.click();
    await page.locator('#confirm-text', { hasText: says }).waitFor();
    await page.click(`#confirm-${answer}`);
  }

  /** At 1280 px the page does not scroll sideways and every button stays inside its card (read in one go: it redraws). */
  async function fitsIn1280() {
    const spilled = await page.locator('html').evaluate((root) => {
      const found: string[] = [];
      if (root.scrollWidth > 1280) found.push(`page ${root.scrollWidth} px`);
      for (const section of root.querySelectorAll('.page:not([hidden]) section')) {
        const card = section.getBoundingClientRect();
        if (card.width === 0) continue;
        for (const button of section.querySelectorAll('button')) {
          const box = button.getBoundingClientRect();
          if (box.width > 0 && box.right > card.right + 1) found.push(button.textContent ?? '');
        }
      }
      return found;
    });
    expect(spilled).toEqual([]);
  }

  it('shows an open breaker as a red line on the overview', async () => {
    await page.goto(`${ingress.adminUrl}/admin`);
    await page.fill('#token', ADMIN_TOKEN);
    await page.fill('#operator', 'grace');
    await page.click('#login button[type=submit]');
    const line = page.locator('#breakers [data-breaker="notifier/email-provider"]');
    await line.waitFor();
    expect(await line.textContent()).toMatch(
      /^notifier: email-provider unavailable since \d{4}-\d\d-\d\d \S+Z \(\d+ min ago\)/,
    );
    await fitsIn1280();
    await shot('overview-breaker');
  });

  it('lists sagas failed first with counts per state, shows one with its history, and retries it (confirmed)', async () => {
    await page.click('nav a[data-page=sagas]');
    await page.locator('#saga-states [data-state=failed] b', { hasText: '1' }).waitFor();
    await page.locator('#sagas tr[data-saga]').first().waitFor();
    expect(
      await page
        .locator('#sagas tr[data-saga]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state'))),
    ).toEqual(['failed', 'running', 'completed']);
    await page.locator(`#sagas tr[data-saga="${sagaId}"] [data-action=show]`).click();
    await page.locator('#saga-history tr[data-seq="3"]', { hasText: 'refund refused' }).waitFor();
    await fitsIn1280();
    await shot('sagas');

    await confirmed(page.locator('#saga-detail-actions [data-action=retry]'), 'compensation of step charge-card again');
    await page
      .locator('#saga-history tr[data-event="retry-requested"]', { hasText: 'requested by admin:grace' })
      .waitFor();
    const [saga] = await db.query(`SELECT state, deadline FROM sagas WHERE id = $1`, [sagaId]);
    expect(saga.state).toBe('failed');
    expect(saga.deadline).not.toBeNull();
    await page.locator(`#sagas tr[data-saga="${sagaId}"]`, { hasText: 'retry pending' }).waitFor();
    expect(await page.locator(`#sagas tr[data-saga="${sagaId}"] [data-action=retry]`).count()).toBe(0);
  });

  it('cancels a running saga from its page, with a reason (confirmed), and lists the cancelled state', async () => {
    await page.click('nav a[data-page=sagas]');
    await page.locator('#saga-states [data-state=cancelled]').waitFor();
    await page.locator(`#sagas tr[data-saga="${runningSagaId}"] [data-action=show]`).click();
    await page.fill('#saga-cancel-reason', 'customer called');
    await fitsIn1280();
    await confirmed(page.locator('#saga-detail-actions [data-action=cancel]'), 'from step reserve-stock down');
    await page
      .locator('#saga-history tr[data-event="cancel-requested"]', {
        hasText: 'cancelled by admin:grace: customer called',
      })
      .waitFor();
    await page.locator(`#sagas tr[data-saga="${runningSagaId}"]`, { hasText: 'cancel pending' }).waitFor();
    expect(await page.locator(`#sagas tr[data-saga="${runningSagaId}"] [data-action=cancel]`).count()).toBe(0);
    const [saga] = await db.query(`SELECT state, cancellation, deadline FROM sagas WHERE id = $1`, [runningSagaId]);
    expect(saga).toMatchObject({ state: 'running', cancellation: 'cancelled by admin:grace: customer called' });
    expect(saga.deadline.getTime()).toBeLessThanOrEqual(Date.now());
    const audit = await db.query(`SELECT actor, action, details FROM operator_audit WHERE subject_id = $1`, [
      runningSagaId,
    ]);
    expect(audit).toEqual([
      { actor: 'admin:grace', action: 'saga-cancel', details: { step: 'reserve-stock', reason: 'customer called' } },
    ]);
  });

  it('adds an endpoint showing its secret once, replays a failed delivery after a dry run, disables and enables it, sends a waiting delivery now', async () => {
    await page.click('nav a[data-page=webhooks]');
    await page.click('#wh-add-box summary');
    await page.fill('#wh-url', 'https://hooks.test/orders');
    await page.fill('#wh-types', 'shop.order.*');
    await page.fill('#wh-description', 'warehouse orders');
    await confirmed(
      page.locator('#wh-add button[type=submit]'),
      'Add endpoint https://hooks.test/orders for shop.order.*',
    );
    const secret = page.locator('#wh-secret');
    await secret.waitFor();
    const [endpoint] = await db.query(
      `SELECT id, state FROM webhook_endpoints WHERE url = 'https://hooks.test/orders'`,
    );
    const [{ secret: stored }] = await db.query(`SELECT secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1`, [
      endpoint.id,
    ]);
    expect(await secret.textContent()).toBe(stored);
    await shot('webhook-secret-once');
    await page.click('#wh-secret-done');
    expect(await page.locator('#wh-secret-box').isHidden()).toBe(true);
    expect(await page.content()).not.toContain(stored);

    const deliveryId = await seedFailedDelivery(endpoint.id);
    const row = page.locator(`#wh-endpoints tr[data-endpoint="${endpoint.id}"]`);
    await row.locator('td[data-column=failed]', { hasText: '1' }).waitFor();
    await row.locator('[data-action=deliveries]').click();
    await page.selectOption('#wh-status', 'failed');
    const delivery = page.locator(`#wh-deliveries tr[data-delivery="${deliveryId}"][data-state=failed]`);
    await delivery.locator('[data-action=attempts]').click();
    await page.locator('#wh-attempts tr[data-attempt="2"]', { hasText: 'HTTP 503' }).waitFor();
    await fitsIn1280();
    await shot('webhook-deliveries');

    // The dry run says how many; cancelling it sends nothing.
    await page.fill('#wh-since', '1h');
    await confirmed(page.locator('#wh-replay button[type=submit]'), 'Dry run: 1 deliveries', 'cancel');
    expect(await db.query(`SELECT state, replay_count FROM webhook_deliveries WHERE id = $1`, [deliveryId])).toEqual([
      { state: 'failed', replay_count: 0 },
    ]);
    await confirmed(page.locator('#wh-delivery-actions [data-action=replay]'), `Send delivery ${deliveryId}`);
    await page.locator('#flash', { hasText: `Delivery ${deliveryId} queued again` }).waitFor();
    expect(await db.query(`SELECT state, replay_count FROM webhook_deliveries WHERE id = $1`, [deliveryId])).toEqual([
      { state: 'pending', replay_count: 1 },
    ]);

    await row.locator('td[data-column=queue]', { hasText: '1 pending' }).waitFor();
    await confirmed(row.locator('[data-action=disable]'), 'Disable endpoint https://hooks.test/orders? Its 1 queued');
    await page.locator(`#wh-endpoints tr[data-endpoint="${endpoint.id}"][data-state=disabled]`).waitFor();
    expect(await db.query(`SELECT state, disabled_reason FROM webhook_endpoints WHERE id = $1`, [endpoint.id])).toEqual(
      [{ state: 'disabled', disabled_reason: 'disabled by admin:grace' }],
    );
    await shot('webhook-endpoints-disabled');
    await confirmed(row.locator('[data-action=enable]'), 'The 1 deliveries waiting for it are sent at once');
    await page.locator(`#wh-endpoints tr[data-endpoint="${endpoint.id}"][data-state=enabled]`).waitFor();
    expect(await db.query(`SELECT state FROM webhook_endpoints WHERE id = $1`, [endpoint.id])).toEqual([
      { state: 'enabled' },
    ]);

    // A delivery that waits five minutes for its next attempt is sent now, its attempts kept.
    const [{ id: waiting }] = await db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                       source_topic, source_partition, source_offset, state, attempts, next_attempt_at,
                                       last_status, last_error)
       VALUES ($1, $2, 'shop.order.placed.v1', '/sources/shop', now(), $3, '{}', 'shop.orders', 0, '13', 'pending', 1,
               now() + interval '5 minutes', 503, 'HTTP 503')
       RETURNING id::text`,
      [endpoint.id, randomUUID(), orderId],
    );
    await page.selectOption('#wh-status', 'pending');
    const pending = page.locator(`#wh-deliveries tr[data-delivery="${waiting}"]`);
    await confirmed(
      pending.locator('[data-action=retry]'),
      'now, instead of at its next attempt (in 5 min)? Its 1 attempt',
    );
    await page.locator('#flash', { hasText: `Delivery ${waiting} is due now` }).waitFor();
    expect(
      await db.query(`SELECT next_attempt_at <= now() AS due, attempts FROM webhook_deliveries WHERE id = $1`, [
        waiting,
      ]),
    ).toEqual([{ due: true, attempts: 1 }]);
    await pending.locator('td[data-column=when]', { hasText: /ago|in 0 s/ }).waitFor();
    expect(await pending.locator('[data-action=retry]').count()).toBe(0);
  });

  it('lists the sources with their rejected deliveries, and shows one without its signature', async () => {
    const body = JSON.stringify({ type: 'shop.order.placed.v1', data: { ...orderData(), amount: -5 } });
    const headers = standardHeaders(secrets.standard[0], `msg_${randomUUID()}`, body);
    expect((await post(`${ingress.url}/webhooks/shop`, body, headers)).status).toBe(400);
    await page.click('nav a[data-page=sources]');
    const shop = page.locator('#sources tr[data-source=shop]', { hasText: 'invalid_event ×1' });
    await shop.waitFor();
    expect(await page.locator('#sources tr[data-source=cloudevents]').textContent()).toContain('POST /events');
    await shop.locator('[data-action=show]').click();
    await page.locator('#source-rejections tr[data-reason=invalid_event]').waitFor();
    await page.locator('#source-rejection-details', { hasText: 'amount must not be less than 0' }).waitFor();
    const shown = await page.locator('#source-rejection-headers').textContent();
    expect(shown).toContain(headers['webhook-id']);
    expect(shown).not.toContain('webhook-signature');
    expect(shown).not.toContain(headers['webhook-signature']);
    expect(await page.locator('#source-rejection-body').textContent()).toContain('"amount":-5');
    await fitsIn1280();
    await shot('sources');
  });

  it('shows the catalogue without the admin token, and the trail with the saga steps and the delivery', async () => {
    const catalogRequests: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/catalog') catalogRequests.push(request.headers().authorization);
    });
    await page.click('nav a[data-page=catalog]');
    const placed = page.locator('#catalog-types tr[data-type="shop.order.placed.v1"]');
    await placed.waitFor();
    expect(await placed.locator('a[data-schema]').getAttribute('href')).toBe('/catalog/schemas/shop.order.placed.v1');
    expect(await placed.locator('.sub').first().textContent()).toBe(
      'A customer placed an order at the shop; nothing is paid yet.',
    );
    await page
      .locator('#catalog-topics tr[data-topic="shop.orders"] [data-group=ledger]', { hasText: 'finance' })
      .waitFor();
    expect(catalogRequests).toEqual([undefined]);
    await fitsIn1280();
    await shot('catalog');

    await page.fill('#find-event-ref', orderId);
    await page.click('#find-event button[type=submit]');
    const trail = page.locator(`article[data-event="${eventId}"]`);
    await trail.locator('li[data-step="saga-retry-requested"]').waitFor();
    await trail.locator('li[data-step="delivery-attempt-failed"]').first().waitFor();
    expect(await trail.locator('li[data-source="saga"]').count()).toBe(4);
    expect(await trail.locator('li[data-step="saga-failed"] a[data-link=saga]').first().getAttribute('href')).toBe(
      `#/sagas/${sagaId}`,
    );
    expect(await trail.locator('li[data-step="delivery-queued"] a[data-link=deliveries]').getAttribute('href')).toMatch(
      /^#\/webhooks\/[0-9a-f-]{36}$/,
    );
    await fitsIn1280();
    await shot('trail-saga-and-deliveries');
  });
});
