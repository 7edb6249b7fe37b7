import { connect } from '@app/db';
import { DeadLetterScenario, orderEvent } from '@app/testing';
import { Browser, chromium, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-console-test';

describe('operator console in headless Chromium', () => {
  let ingress: Ingress;
  let dataSource: DataSource;
  let scenario: DeadLetterScenario;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN });
    dataSource = await connect({ url: ingress.database.url, applicationName: 'console-test', poolSize: 6 });
    [scenario, browser] = await Promise.all([
      DeadLetterScenario.start(dataSource),
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
    ]);
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await scenario?.stop();
    await dataSource?.destroy();
    await ingress?.close();
  });

  async function signIn(token: string, operator: string) {
    await page.goto(`${ingress.adminUrl}/admin`);
    await page.fill('#token', token);
    await page.fill('#operator', operator);
    await page.click('#login button[type=submit]');
  }

  it('refuses a wrong token', async () => {
    await signIn('not-the-admin-token', 'mallory');
    await page.locator('#login-error', { hasText: 'The token was not accepted.' }).waitFor();
    expect(await page.isHidden('#app')).toBe(true);
  });

  it('lists a dead letter under its error class, shows its error and payload, and replay (confirmed) resolves it', async () => {
    const event = orderEvent('order-console');
    await scenario.publish([event]);
    const { id } = await scenario.deadLetterOf(event.id);

    await signIn(ADMIN_TOKEN, 'grace');
    await page.locator('#backlog-unpublished').waitFor();
    await page.click('nav a[data-page=dead-letters]');
    const row = page.locator(`#dead-letters tr[data-id="${id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('dead');
    expect(await row.locator('[data-column=errorClass]').textContent()).toBe('PermanentError');
    await page
      .locator('#classes tr', { hasText: scenario.failing.group })
      .filter({ hasText: 'PermanentError' })
      .waitFor();

    await row.locator('button[data-action=show]').click();
    await page.locator('#detail-error', { hasText: 'no ledger account for order-console' }).waitFor();
    expect(JSON.parse((await page.textContent('#detail-payload')) ?? '')).toMatchObject({ orderId: 'order-console' });

    scenario.fixed = true;
    try {
      await row.locator('button[data-action=replay]').click();
      await page.locator('#confirm-text', { hasText: `${scenario.failing.group}.replay` }).waitFor();
      await page.click('#confirm-ok');
      await page.locator(`#dead-letters tr[data-id="${id}"][data-status="resolved"]`).waitFor({ timeout: 20_000 });
    } finally {
      scenario.fixed = false;
    }
    expect(await scenario.effects(scenario.failing.group)).toEqual([event.id]);
    const [audit] = await dataSource.query(
      `SELECT actor, action, count, affected_ids AS dead_letter_ids FROM operator_audit WHERE subject_type = 'dead-letters' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ actor: 'admin:grace', action: 'replay', count: 1, dead_letter_ids: [id] });
  });
});
