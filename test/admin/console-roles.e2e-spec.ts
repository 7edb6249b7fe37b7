import { randomUUID } from 'node:crypto';
import { Browser, chromium, Page } from 'playwright-core';
import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-console-roles-test';

/** The console offers only what the signed-in token may do; the API refuses the rest anyway. */
describe('operator console in headless Chromium with a viewer and with a team operator', () => {
  let ingress: Ingress;
  let browser: Browser;
  let page: Page;
  const letters = { ledger: randomUUID(), payments: randomUUID() };
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    [ingress, browser] = await Promise.all([
      startIngress({ ADMIN_TOKEN, OPS_SAMPLE_INTERVAL_MS: '0' }),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
    ]);
    for (const [group, id] of Object.entries(letters))
      await ingress.query(
        `INSERT INTO dead_letters (id, "group", event_id, type, key, original_topic, original_partition,
           original_offset, replay_topic, payload, headers, error_class, error_message, attempts, dead_at)
         VALUES ($1, $2, $3, 'shop.order.placed.v1', 'ord_1', 'shop.orders', 0, 7, $4, '{}', '{}', 'Poison',
           'no account', 1, now())`,
        [id, group, `evt_${group}`, `${group}.replay`],
      );
    for (const [name, fields] of Object.entries({
      viewer: { role: 'viewer' },
      ledger: { role: 'operator', groups: ['ledger'] },
      status: { role: 'status' },
    })) {
      const response = await fetch(`${ingress.adminUrl}/admin/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `console-${name}`, ...fields }),
      });
      tokens[name] = ((await response.json()) as { token: string }).token;
    }
  });

  afterAll(async () => {
    await browser?.close();
    await ingress?.close();
  });

  async function signIn(token: string) {
    await page?.close();
    page = await browser.newPage();
    await page.goto(`${ingress.adminUrl}/admin`);
    await page.fill('#token', token);
    await page.fill('#operator', 'ada');
    await page.click('#login button[type=submit]');
  }

  /** The dead-letter rows on screen, each with the actions it offers. */
  async function deadLetterRows(count: number) {
    await page.click('nav a[data-page=dead-letters]');
    await page
      .locator('#dead-letters tr[data-id]')
      .nth(count - 1)
      .waitFor();
    return page.locator('#dead-letters tr[data-id]').evaluateAll((rows) =>
      rows.map((row) => ({
        id: row.getAttribute('data-id'),
        actions: [...row.querySelectorAll('button[data-action]')]
          .filter((button) => (button as unknown as { offsetParent: unknown }).offsetParent !== null)
          .map((button) => button.getAttribute('data-action')),
      })),
    );
  }

  it('shows a viewer who it is, every dead letter, and no action that changes anything', async () => {
    await signIn(tokens.viewer);
    await page.locator('#who', { hasText: 'signed in as console-viewer (ada) · viewer' }).waitFor();
    const rows = await deadLetterRows(2);
    expect(rows.map((row) => row.id).sort()).toEqual(Object.values(letters).sort());
    for (const row of rows) expect(row.actions).toEqual(['show']);
    await page.click('nav a[data-page=webhooks]');
    await page.locator('.page[data-page="webhooks"]:not([hidden])').waitFor();
    expect(await page.locator('#wh-add-box').isVisible()).toBe(false);
    expect(await page.locator('nav a[data-page=tokens]').isVisible()).toBe(false);
  });

  it("offers a team operator its own group's replay, not the admin's purge, and nothing of other groups", async () => {
    await signIn(tokens.ledger);
    await page.locator('#who', { hasText: 'signed in as console-ledger (ada) · operator of ledger' }).waitFor();
    const rows = await deadLetterRows(1);
    expect(rows).toEqual([{ id: letters.ledger, actions: ['show', 'replay'] }]);
  });

  it('lets an admin make a token (shown once) and revoke it from the Tokens page', async () => {
    await signIn(ADMIN_TOKEN);
    await page.locator('#who', { hasText: 'signed in as admin (ada) · admin' }).waitFor();
    await page.click('nav a[data-page=tokens]');
    await page.locator('#tokens tr[data-token="console-viewer"]').waitFor();
    await page.click('#token-add-box summary');
    await page.fill('#token-name', 'made-in-console');
    await page.selectOption('#token-role', 'operator');
    await page.fill('#token-groups', 'ledger');
    await page.click('#token-add button[type=submit]');
    await page.click('#confirm-ok');
    await page.locator('#token-secret', { hasText: /^hrk_/ }).waitFor();
    const shown = (await page.locator('#token-secret').textContent()) ?? '';
    const whoami = await fetch(`${ingress.adminUrl}/admin/whoami`, { headers: { authorization: `Bearer ${shown}` } });
    expect(await whoami.json()).toMatchObject({ name: 'made-in-console', role: 'operator', groups: ['ledger'] });
    await page.locator('#tokens tr[data-token="made-in-console"] button[data-action=revoke-token]').click();
    await page.click('#confirm-ok');
    await page.locator('#tokens tr[data-token="made-in-console"][data-state=revoked]').waitFor();
    const after = await fetch(`${ingress.adminUrl}/admin/whoami`, { headers: { authorization: `Bearer ${shown}` } });
    expect(after.status).toBe(401);
  });

  it('lets an admin add a customer and make its portal link, which opens the portal once', async () => {
    await signIn(ADMIN_TOKEN);
    await page.locator('#who', { hasText: 'signed in as admin' }).waitFor();
    await page.click('nav a[data-page=customers]');
    await page.click('#customer-add-box summary');
    await page.fill('#customer-uid', 'shop_console');
    await page.fill('#customer-name', 'Console Books');
    await page.click('#customer-add button[type=submit]');
    await page.click('#confirm-ok');
    const row = page.locator('#customers tr[data-customer="shop_console"]');
    await row.waitFor();
    await row.locator('button[data-action=portal-link]').click();
    await page.click('#confirm-ok');
    await page.locator('#customer-link', { hasText: '/portal#link=' }).waitFor();
    const link = new URL((await page.locator('#customer-link').textContent()) ?? '').hash.slice('#link='.length);
    const open = (body: unknown) =>
      fetch(`${ingress.portalUrl}/customer/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await open({ link })).status).toBe(201);
    expect((await open({ link })).status).toBe(401);
  });

  it('offers a viewer the customers but no change to them', async () => {
    await signIn(tokens.viewer);
    await page.locator('#who', { hasText: 'signed in as console-viewer' }).waitFor();
    await page.click('nav a[data-page=customers]');
    await page.locator('#customers tr[data-customer="shop_console"]').waitFor();
    expect(await page.locator('#customers button[data-action]:visible').count()).toBe(0);
    expect(await page.locator('#customer-add-box').isVisible()).toBe(false);
  });

  it('sends a status token back to the sign-in form, saying why', async () => {
    await signIn(tokens.status);
    await page.locator('#login-error', { hasText: 'This token may not open the console' }).waitFor();
    expect(await page.isHidden('#app')).toBe(true);
  });
});
