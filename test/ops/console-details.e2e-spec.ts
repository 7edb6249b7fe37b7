import { waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { ADMIN_TOKEN, OpsBed } from './ops-bed';

/** Where the screenshots go (CI keeps this folder as an artefact); never inside the repository. */
const SCREENSHOTS = path.join(os.tmpdir(), 'hookrail-console-screenshots');

/**
 * The console's details on the real ingress in headless Chromium: chart legends, the success message, a saga's
 * resolved error, the favicon, and the header on a 390 px phone as on a 1280 px screen.
 */
describe('console details in headless Chromium', () => {
  let bed: OpsBed;
  let browser: Browser;
  const requests: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [bed, browser] = await Promise.all([
      OpsBed.start('console-details', { OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' }),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await bed?.stop();
  });

  async function signedIn(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${bed.ingress.adminUrl}/admin`);
    await page.fill('#token', ADMIN_TOKEN);
    await page.fill('#operator', 'grace');
    await page.click('#login button[type=submit]');
    await page.locator('#backlog-unpublished').waitFor();
    return page;
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  it('shows each chart legend with the latest values, not "--", until the pointer is on the chart', async () => {
    for (let i = 0; i < 3; i++) await bed.send(`ord_legend_${i}`);
    await waitFor(
      async () => {
        const { charts } = await bed.admin<{ charts: Array<{ metric: string; series: Array<{ values: unknown[] }> }> }>(
          'charts?minutes=5',
        );
        return charts
          .find((chart) => chart.metric === 'accepted')
          ?.series.some((series) => series.values.some(Boolean));
      },
      { what: 'accepted events sampled', timeoutMs: 30_000, intervalMs: 500 },
    );
    const page = await signedIn(1280);
    const accepted = page.locator('figure[data-chart="accepted"]');
    await accepted.locator('canvas').waitFor();
    const legend = async () =>
      accepted.locator('.u-legend .u-value').evaluateAll((cells) => cells.map((cell) => cell.textContent));
    const latest = await legend();
    expect(latest.length).toBeGreaterThan(1);
    expect(latest).not.toContain('--');
    // The time shown is the latest sample's, in UTC like every time in the console.
    expect(latest[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);

    const box = (await accepted.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    // On the chart, the legend follows the pointer (here the start of the hour)…
    await waitFor(async () => (await legend())[0] !== latest[0], { what: 'the legend at the pointer' });
    // …and off it, it shows the latest values again.
    await page.mouse.move(box.x + box.width + 200, box.y - 100);
    expect(await legend()).toEqual(latest);
    await shot(page, 'charts-legend-latest');
    await page.close();
  });

  it('clears a success message when the operator goes to another page', async () => {
    const page = await signedIn(1280);
    await page.click('nav a[data-page=webhooks]');
    await page.click('#wh-add-box summary');
    await page.fill('#wh-url', 'https://hooks.test/flash');
    await page.fill('#wh-types', 'shop.order.*');
    await page.click('#wh-add button[type=submit]');
    await page.click('#confirm-ok');
    await page.locator('#flash', { hasText: 'Added endpoint https://hooks.test/flash' }).waitFor();
    await page.click('nav a[data-page=jobs]');
    await page.locator('#jobs').waitFor();
    expect(await page.locator('#flash').textContent()).toBe('');
    await page.close();
  });

  it('shows the error of a saga that a retry compensated as history, not as its current error', async () => {
    const sagaId = randomUUID();
    await bed.ingress.query(
      `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, version, data,
                          failure, last_error, ended_at)
       VALUES ($1, 'order-fulfilment', 'ord_resolved', $2, 'compensated', 0, 'reserve-stock', 0, 6, '{}',
               'shipment undeliverable', 'refund refused', now())`,
      [sagaId, randomUUID()],
    );
    const history = [
      ['charge-card', 'compensation', 'failed', 'failed', 'refund refused'],
      ['charge-card', 'operator', 'retry-requested', 'failed', 'requested by admin:grace'],
      ['charge-card', 'compensation', 'compensated', 'compensating', null],
      ['reserve-stock', 'compensation', 'compensated', 'compensated', null],
    ];
    for (const [index, row] of history.entries())
      await bed.ingress.query(
        `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [sagaId, index + 1, ...row],
      );
    const page = await signedIn(1280);
    await page.goto(`${bed.ingress.adminUrl}/admin#/sagas/${sagaId}`);
    const fields = page.locator('#saga-detail-fields');
    await fields.locator('tr[data-field="state"]', { hasText: 'compensated' }).waitFor();
    expect(await fields.locator('tr[data-field="last error"]').count()).toBe(0);
    expect(await fields.locator('tr[data-field="earlier error (resolved)"] td[data-column=value]').textContent()).toBe(
      'refund refused',
    );
    expect(await fields.locator('tr[data-field="compensated because"] td[data-column=value]').textContent()).toBe(
      'shipment undeliverable',
    );
    const row = page.locator(`#sagas tr[data-saga="${sagaId}"] td[data-column=lastError]`);
    expect(await row.textContent()).toBe('shipment undeliverableearlier: refund refused');
    expect(await row.locator('.history').textContent()).toBe('earlier: refund refused');
    await shot(page, 'saga-compensated-after-retry');
    await page.close();
  });

  it('has a favicon served by the admin app, and asks nothing of any other host', async () => {
    const page = await signedIn(1280);
    const href = await page.locator('link[rel=icon]').getAttribute('href');
    expect(href).toBe('/admin/assets/favicon.svg');
    const icon = await page.request.get(`${bed.ingress.adminUrl}${href}`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    await page.close();
    const origin = new URL(bed.ingress.adminUrl).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  });

  it.each([390, 1280])('keeps the header inside a %i px wide window, wrapping it when it must', async (width) => {
    const page = await signedIn(width);
    for (const route of ['overview', 'sagas', 'webhooks']) {
      await page.goto(`${bed.ingress.adminUrl}/admin#/${route}`);
      await page.locator(`.page[data-page="${route}"]:not([hidden]) section`).first().waitFor();
      const spilled = await page.locator('html').evaluate((root, viewport) => {
        const found: string[] = [];
        if (root.scrollWidth > viewport) found.push(`page ${root.scrollWidth} px`);
        for (const element of root.querySelectorAll('header, header > *, header nav a, header form > *')) {
          const box = element.getBoundingClientRect();
          if (box.width > 0 && (box.right > viewport + 0.5 || box.left < -0.5))
            found.push(
              `${element.tagName.toLowerCase()}#${element.id} ${Math.round(box.left)}–${Math.round(box.right)} px`,
            );
        }
        return found;
      }, width);
      expect({ route, spilled }).toEqual({ route, spilled: [] });
      await shot(page, `${route}-${width}px`);
    }
    await page.close();
  });
});
