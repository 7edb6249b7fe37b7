import { waitFor } from '@app/testing';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { ADMIN_TOKEN, OpsBed } from './ops-bed';

/** Where the screenshots go (CI keeps this folder as an artefact); never inside the repository. */
const SCREENSHOTS = path.join(os.tmpdir(), 'hookrail-console-screenshots');
const CHARTS = ['accepted', 'published', 'applied', 'lag', 'backlog', 'dead-letters'];

interface ChartAnswer {
  metric: string;
  series: Array<{ name: string; values: Array<number | null> }>;
}

describe('operator console on the running system, in headless Chromium at 1280 px', () => {
  let bed: OpsBed;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    bed = await OpsBed.start('console');
    [browser] = await Promise.all([
      chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      }),
      bed.startRelay(),
      // The ledger keeps accounts in euros only: an order in dollars is dead-lettered and its key parked.
      bed.startConsumers({ LEDGER_CURRENCIES: 'EUR' }),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bed?.stop();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  it('shows each chart with data after traffic, and each group with its owner', async () => {
    bed.emailProvider.configure({ failureRate: 1, failStatus: 422 });
    const poisoned = await bed.send('ord_console_0');
    await bed.deadLetterOf(poisoned, 'notifier');
    bed.emailProvider.configure({ failureRate: 0 });
    for (let i = 1; i <= 6; i++) await bed.send(`ord_console_${i}`);
    // Rates show the traffic (a non-zero sample); levels (lag, backlog) may well have drained to zero.
    const sampled = (charts: ChartAnswer[], metric: string, seen: (value: number | null) => boolean) =>
      charts.find((chart) => chart.metric === metric)?.series.some((series) => series.values.some(seen));
    await waitFor(
      async () => {
        const { charts } = await bed.admin<{ charts: ChartAnswer[] }>('charts?minutes=5');
        return (
          ['accepted', 'published', 'applied', 'dead-letters'].every((metric) => sampled(charts, metric, Boolean)) &&
          ['lag', 'backlog'].every((metric) => sampled(charts, metric, (value) => value !== null))
        );
      },
      { what: 'the traffic in every chart', timeoutMs: 45_000, intervalMs: 500 },
    );

    await page.goto(`${bed.ingress.adminUrl}/admin`);
    await page.fill('#token', ADMIN_TOKEN);
    await page.fill('#operator', 'grace');
    await page.click('#login button[type=submit]');
    for (const metric of CHARTS) {
      const chart = page.locator(`figure[data-chart="${metric}"]`);
      await chart.locator('canvas').waitFor();
      expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);
    }
    await page.locator('#consumer-groups tr[data-group="ledger"]', { hasText: 'finance' }).waitFor();
    await page.locator('#consumer-groups tr[data-group="notifier"]', { hasText: 'customer-messaging' }).waitFor();
    // How each group works through its partitions: the notifier calls a provider and runs keys at once.
    await page.locator('#consumer-groups tr[data-group="notifier"] td', { hasText: /^key$/ }).waitFor();
    await page.locator('#consumer-groups tr[data-group="ledger"] td', { hasText: /^batch$/ }).waitFor();
    await shot('overview');

    await page.click('nav a[data-page=dead-letters]');
    await page.locator('#dead-letters tr[data-status="dead"]', { hasText: 'customer-messaging' }).waitFor();
    await shot('dead-letters');
    // At 1280 px every action button stays inside its card: measured in one go, in the page, so that the list's
    // refresh cannot replace a button between finding it and measuring it.
    const buttons = await page.locator('#dead-letters').evaluate((card) => {
      const edge = card.getBoundingClientRect().right + 1;
      const shown = [...card.querySelectorAll('button')].filter((button) => button.getClientRects().length > 0);
      return {
        shown: shown.length,
        outside: shown.filter((button) => button.getBoundingClientRect().right > edge).map((b) => b.textContent),
      };
    });
    expect(buttons.shown).toBeGreaterThan(0);
    expect(buttons.outside).toEqual([]);
    await shot('dead-letters');

    await page.click('nav a[data-page=jobs]');
    await page.locator('#jobs tr[data-job="ops-samples"][data-overdue="false"]').waitFor();
    await shot('jobs');
  });

  it("opens an event's trail from the search box and replays its dead letter from the trail (confirmed)", async () => {
    bed.emailProvider.configure({ failureRate: 1, failStatus: 422 });
    const id = await bed.send('ord_console_trail');
    await bed.deadLetterOf(id, 'notifier');
    bed.emailProvider.configure({ failureRate: 0 });

    await page.fill('#find-event-ref', bed.senderIds.get(id)!);
    await page.click('#find-event button[type=submit]');
    const event = page.locator(`article[data-event="${id}"]`);
    for (const step of ['received', 'queued', 'published', 'dead-lettered'])
      await event.locator(`li[data-step="${step}"]`).first().waitFor();
    await event.locator('li[data-step="applied"][data-group="ledger"]').waitFor();
    await shot('trail-dead-lettered');

    await event.locator('li[data-step="dead-lettered"] button[data-action=replay]').click();
    await page.locator('#confirm-text', { hasText: 'notifier.replay' }).waitFor();
    await page.click('#confirm-ok');
    await event.locator('li[data-step="replayed"]', { hasText: 'by admin:grace' }).waitFor({ timeout: 20_000 });
    await event.locator('li[data-step="applied"][data-group="notifier"]').waitFor({ timeout: 20_000 });
    await event.locator('li[data-step="resolved"]').waitFor({ timeout: 20_000 });
    const order = await event.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
    expect(order.indexOf('dead-lettered')).toBeLessThan(order.indexOf('replayed'));
    expect(order.indexOf('replayed')).toBeLessThan(order.lastIndexOf('applied'));
    await shot('trail-replayed');
  });

  /** An order the ledger rejects (dollars), then `behind` more events of it: parked behind its dead letter. */
  async function parkKey(orderId: string, behind: number): Promise<{ head: string; parked: string[] }> {
    const head = await bed.send(orderId, { currency: 'USD' });
    const parked: string[] = [];
    for (let i = 0; i < behind; i++) parked.push(await bed.send(orderId));
    await waitFor(
      async () => {
        const { items } = await bed.admin(`parked-keys?group=ledger&key=${orderId}`);
        return items[0]?.headStatus === 'dead' && items[0].parkedEvents === behind;
      },
      { what: `${orderId} parked with ${behind} events behind it`, timeoutMs: 45_000 },
    );
    return { head: (await bed.deadLetterOf(head, 'ledger')).id, parked };
  }

  const appliedByLedger = async (eventIds: string[]) =>
    (
      await bed.ingress.query(
        `SELECT count(*)::int AS n FROM processed_events WHERE "group" = 'ledger' AND event_id = ANY($1)`,
        [eventIds],
      )
    )[0].n as number;

  it('shows parked keys (overview tile, events waiting behind each head, the parked filter) and releases or purges one after a confirmation saying how many wait', async () => {
    const released = await parkKey('ord_console_parked', 2);
    const purged = await parkKey('ord_console_purged', 1);

    await page.click('nav a[data-page=overview]');
    await page.locator('#parked-keys-count', { hasText: /^2$/ }).waitFor();
    expect(await page.locator('#parked-keys-link').textContent()).toContain('3 event(s) waiting');
    await shot('overview-parked');

    await page.click('#parked-keys-link');
    const key = page.locator('#parked-keys tr[data-key="ledger/ord_console_parked"]');
    await key.locator('td[data-column="parkedEvents"]', { hasText: /^2$/ }).waitFor();
    await page
      .locator(`#dead-letters tr[data-id="${released.head}"] td[data-column="status"] [data-waiting="2"]`, {
        hasText: '2 waiting behind',
      })
      .waitFor();
    await page.selectOption('#status', 'parked');
    await page.locator('#dead-letters tr[data-status="parked"]').nth(2).waitFor();
    expect(await page.locator('#dead-letters tr[data-status="parked"]').count()).toBe(3);
    await shot('dead-letters-parked');

    // Cancelled: nothing changes.
    await key.locator('button[data-action=release]').click();
    await page
      .locator('#confirm-text', { hasText: '2 parked event(s) of key ord_console_parked wait behind it' })
      .waitFor();
    await page.click('#confirm-cancel');
    expect((await bed.admin(`parked-keys?group=ledger&key=ord_console_parked`)).items).toHaveLength(1);

    // Release: the head is purged and the two events behind it are applied, in order.
    await key.locator('button[data-action=release]').click();
    await page.locator('#confirm-text', { hasText: 'they are then applied, in order' }).waitFor();
    await page.click('#confirm-ok');
    await page.locator('#flash', { hasText: `Purged ${released.head}` }).waitFor();
    await waitFor(async () => (await appliedByLedger(released.parked)) === 2, {
      what: 'the released events applied by the ledger',
      timeoutMs: 30_000,
    });
    await key.waitFor({ state: 'detached', timeout: 20_000 });

    // Purge key: its dead letter and the event behind it are given up on; none is applied.
    const other = page.locator('#parked-keys tr[data-key="ledger/ord_console_purged"]');
    await other.locator('button[data-action=purge-key]').click();
    await page.locator('#confirm-text', { hasText: 'the 1 event(s) parked behind it are purged' }).waitFor();
    await page.click('#confirm-ok');
    await page.locator('#flash', { hasText: 'Purged key ord_console_purged: 2 dead letter(s)' }).waitFor();
    await other.waitFor({ state: 'detached' });
    expect(await appliedByLedger(purged.parked)).toBe(0);
    const [audit] = await bed.ingress.query(
      `SELECT actor, details AS filter FROM operator_audit WHERE subject_type = 'dead-letters' AND action = 'purge' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      actor: 'admin:grace',
      filter: { group: 'ledger', key: 'ord_console_purged', wholeKey: true },
    });

    await page.click('nav a[data-page=overview]');
    await page.locator('#parked-keys-count', { hasText: /^0$/ }).waitFor();
    await shot('overview-no-parked');
  });
});
