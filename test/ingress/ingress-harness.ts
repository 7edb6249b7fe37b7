import { loadConfig } from '@app/config';
import { AppProcess, cleanEnv, createTestDatabase, freePort, TestDatabase } from '@app/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createAdminApp } from '../../apps/admin/src/admin.app';
import { AdminEnv } from '../../apps/admin/src/config/admin.env';
import { IngressEnv } from '../../apps/ingress/src/config/ingress.env';
import { createIngressApp } from '../../apps/ingress/src/ingress.app';
import { createPortalApp } from '../../apps/admin/src/portal/portal.app';
import { bearer, issueTestToken } from './status-tokens';

/** Secrets made fresh for each run: two per source, so rotation can be tested. */
export const secrets = {
  standard: [`whsec_${randomBytes(24).toString('base64')}`, `whsec_${randomBytes(24).toString('base64')}`],
  stripe: [`whsec_${randomBytes(16).toString('hex')}`, `whsec_${randomBytes(16).toString('hex')}`],
  github: [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')],
  producerToken: randomBytes(24).toString('hex'),
};

export const testSources = [
  {
    name: 'shop',
    scheme: 'standard-webhooks',
    secrets: ['env:TEST_SHOP_SECRET', secrets.standard[1]],
    topic: 'shop.orders',
    aggregateIdPath: 'data.orderId',
    customerIdPath: 'tenant.uid',
  },
  {
    name: 'stripe',
    scheme: 'stripe',
    secrets: secrets.stripe,
    topic: 'stripe.events',
    aggregateIdPath: 'data.object.id',
  },
  {
    name: 'github',
    scheme: 'github',
    secrets: secrets.github,
    topic: 'github.events',
    aggregateIdPath: 'repository.full_name',
  },
];

export interface Ingress {
  /** The public port: webhooks, events, health and metrics. */
  url: string;
  app: NestFastifyApplication;
  /** The operator plane (the admin app) on its own port, over the same database: /admin, the console, /catalog. */
  adminUrl: string;
  admin: NestFastifyApplication;
  /** The customer API (/customer/v1), the admin process's second listener. */
  portalUrl: string;
  portal: NestFastifyApplication;
  database: TestDatabase;
  /** Runs SQL against the ingress's own test database. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  count(table: 'inbound_events' | 'outbox'): Promise<number>;
  /** `Authorization` of a viewer token on this database (issued once): reads any event's full status. */
  viewer(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The real ingress app on a random port, over a database of its own, and the admin app beside it (the same overrides:
 * each app reads the variables it knows). `reachDatabase` turns the database's URL into
 * the one the ingress is given (e.g. through a proxy); the test's own queries go straight to it.
 */
export async function startIngress(
  overrides: Record<string, string> = {},
  reachDatabase: (url: string) => string = (url) => url,
): Promise<Ingress> {
  const database = await createTestDatabase();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-ingress-'));
  const sourcesFile = path.join(dir, 'sources.json');
  writeFileSync(sourcesFile, JSON.stringify(testSources));
  process.env.TEST_SHOP_SECRET = secrets.standard[0];
  const env = {
    DATABASE_URL: reachDatabase(database.url),
    HOOKRAIL_SOURCES: sourcesFile,
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    PRODUCER_TOKENS: secrets.producerToken,
    LOG_LEVEL: 'warn',
    PORT: '0',
    ADMIN_PORT: '0',
    PORTAL_PORT: '0',
    ...overrides,
  };
  const adminConfig = loadConfig(AdminEnv, env);
  const [app, admin, portal] = await Promise.all([
    createIngressApp(loadConfig(IngressEnv, env)),
    createAdminApp(adminConfig),
    createPortalApp(adminConfig),
  ]);
  await Promise.all([app.listen(0, '127.0.0.1'), admin.listen(0, '127.0.0.1'), portal.listen(0, '127.0.0.1')]);
  const urlOf = async (nest: NestFastifyApplication) => (await nest.getUrl()).replace('[::1]', '127.0.0.1');
  const client = new Client({ connectionString: database.url });
  await client.connect();
  const query = async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[];
  let viewer: Promise<Record<string, string>> | undefined;
  const adminUrl = await urlOf(admin);
  return {
    url: await urlOf(app),
    app,
    adminUrl,
    admin,
    portalUrl: await urlOf(portal),
    portal,
    database,
    query,
    count: async (table) => Number((await query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0].n),
    viewer: () => (viewer ??= issueTestToken(database.url, { role: 'viewer', name: 'test-viewer' }).then(bearer)),
    close: async () => {
      await Promise.all([app.close(), admin.close(), portal.close()]);
      await client.end();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function orderData(orderId = `ord_${randomBytes(4).toString('hex')}`) {
  return {
    orderId,
    customer: { id: 'cus_1', email: 'ada@example.com', name: 'Ada' },
    amount: 4200,
    currency: 'EUR',
    lineItems: [{ sku: 'book', quantity: 2, unitAmount: 2100 }],
    note: 'please gift wrap',
  };
}

export async function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
  };
}

/**
 * A call to the admin API or the customer API: `token` as the bearer (none when null), `operator` as
 * X-Hookrail-Operator, `body` as JSON; the answer's status and parsed body (undefined when empty).
 */
export async function apiCall(
  baseUrl: string,
  method: string,
  path: string,
  { token, body, operator }: { token: string | null; body?: unknown; operator?: string },
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (operator !== undefined) headers['x-hookrail-operator'] = operator;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The ingress as `npm run start:ingress` runs it: a process of its own, on a free port, over a database of its own. */
export interface IngressProcess {
  url: string;
  process: AppProcess;
  database: TestDatabase;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startIngressProcess(overrides: Record<string, string> = {}): Promise<IngressProcess> {
  const database = await createTestDatabase();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-ingress-'));
  const sourcesFile = path.join(dir, 'sources.json');
  writeFileSync(sourcesFile, JSON.stringify(testSources));
  const port = await freePort();
  const child = AppProcess.start(
    'ingress',
    cleanEnv({
      DATABASE_URL: database.url,
      HOOKRAIL_SOURCES: sourcesFile,
      ADMIN_TOKEN: randomBytes(16).toString('hex'),
      TEST_SHOP_SECRET: secrets.standard[0],
      PORT: String(port),
      OPS_SAMPLE_INTERVAL_MS: '0',
      ...overrides,
    }),
  );
  await child.waitForLog('ingress started');
  const client = new Client({ connectionString: database.url });
  await client.connect();
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    database,
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    close: async () => {
      child.signal('SIGTERM');
      await child.exited;
      await client.end();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
