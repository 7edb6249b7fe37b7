import { loadConfig } from '@app/config';
import { SsrfGuard } from '@app/ssrf-guard';
import { OutboundWebhooksEnv, ssrfPolicyOf } from '@app/webhooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docker-compose.yml read as text (no Docker here): its services, their published ports, environments and
 * healthchecks. Publishing only on 127.0.0.1 keeps Postgres and Kafka off the network, and off the ports a local
 * Postgres (5432) already holds; the development webhook receiver runs beside the apps and is allowed by their SSRF
 * rules, so that an endpoint on it works.
 */
const text = readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8');

/** The lines of each service under `services:` (two-space indented names), without comments. */
function services(): Map<string, string[]> {
  const lines = text.split('\n').map((line) => line.replace(/\s+#.*$/, ''));
  const start = lines.indexOf('services:');
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const name = /^ {2}([a-z0-9-]+):$/.exec(line)?.[1];
    if (name) found.set(name, (current = []));
    else if (current && line.trim()) current.push(line);
  }
  return found;
}

const service = (name: string): string[] => {
  const lines = services().get(name);
  if (!lines) throw new Error(`docker-compose.yml has no service ${name}`);
  return lines;
};

/** `ports: ['a', 'b']` of a service. */
const ports = (name: string): string[] =>
  service(name)
    .filter((line) => /^ {4}ports: \[/.test(line))
    .flatMap((line) => [...line.matchAll(/'([^']+)'/g)].map((match) => match[1]));

/** `KEY: value` lines of a service's environment (its own, not the anchors it merges). */
function environment(name: string): Record<string, string> {
  const lines = service(name);
  const at = lines.findIndex((line) => /^ {4}environment:/.test(line));
  const env: Record<string, string> = {};
  for (const line of at < 0 ? [] : lines.slice(at + 1)) {
    if (!/^ {6}/.test(line)) break;
    const match = /^ {6}([A-Z0-9_]+): (.*)$/.exec(line);
    if (match) env[match[1]] = match[2].replace(/^'(.*)'$/, '$1');
  }
  return env;
}

const healthcheck = (name: string): string => {
  const lines = service(name);
  const at = lines.findIndex((line) => /^ {4}healthcheck:/.test(line));
  if (at < 0) throw new Error(`${name} has no healthcheck`);
  return lines
    .slice(at + 1)
    .filter((line, index, all) => all.slice(0, index + 1).every((each) => /^ {6}/.test(each)))
    .join('\n');
};

describe('docker-compose.yml', () => {
  it('is indented with spaces, two at a time, and every service has an image or a build', () => {
    expect(text).not.toMatch(/\t/);
    for (const line of text.split('\n')) expect((/^ */.exec(line)?.[0].length ?? 0) % 2).toBe(0);
    for (const [name, lines] of services())
      expect({ name, source: lines.some((line) => /^ {4}(image|build|<<):/.test(line)) }).toEqual({
        name,
        source: true,
      });
  });

  it('publishes every port on 127.0.0.1 only, but the ingress, and Postgres off the 5432 a local Postgres holds', () => {
    for (const name of services().keys()) {
      if (name === 'ingress' || name === 'ingress-secure') continue;
      for (const port of ports(name))
        expect({ name, port }).toEqual({ name, port: expect.stringMatching(/^127\.0\.0\.1:/) });
    }
    expect(ports('postgres')).toEqual(['127.0.0.1:5433:5432']);
    expect(ports('kafka')).toEqual(['127.0.0.1:9092:9092']);
    // What the broker tells clients on this machine to connect to is the address it is published on.
    expect(environment('kafka').KAFKA_ADVERTISED_LISTENERS).toMatch(/^HOST:\/\/127\.0\.0\.1:9092,/);
  });

  it.each([
    ['relay', 9464],
    ['consumers', 9465],
  ])('publishes the %s metrics port and checks its health on it', (name, port) => {
    expect(ports(name)).toEqual([`127.0.0.1:${port}:${port}`]);
    expect(healthcheck(name)).toContain(`http://127.0.0.1:${port}/metrics`);
    expect(healthcheck(name)).toMatch(/interval: \d+s/);
  });

  it('runs ingress-secure in the secure profile without Kafka credentials or the admin token: it never reaches Kafka', () => {
    const env = environment('ingress-secure');
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD_FILE', 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE'])
      expect(env[name]).toBeUndefined();
  });

  it.each(['admin', 'relay', 'consumers'])(
    'runs %s-secure in the secure profile as its own principal, every secret from a file, Postgres verified',
    (app) => {
      const env = environment(`${app}-secure`);
      expect(env).toMatchObject({
        KAFKA_SASL_USERNAME: `hookrail-${app}`,
        KAFKA_SASL_PASSWORD_FILE: `/run/hookrail/kafka/hookrail-${app}.password`,
      });
      for (const secret of ['DATABASE_URL', 'ADMIN_TOKEN', 'KAFKA_SASL_PASSWORD']) expect(env[secret]).toBeUndefined();
      // The shared environment of the profile's apps: verified TLS to the broker, the database URL from the volume.
      expect(text).toMatch(/x-secure-app: &secure-app\n(.*\n)*? {4}DATABASE_URL_FILE: \/run\/hookrail\/database-url\n/);
      expect(text).toMatch(
        /&secure-env\n(.*\n)*? {4}KAFKA_TLS: 'true'\n {4}KAFKA_TLS_CA_FILE: \/run\/hookrail\/tls\/ca\.pem\n/,
      );
      // secrets.sh writes a password file for each principal the apps name.
      expect(readFileSync(path.resolve(__dirname, '../../scripts/compose/secrets.sh'), 'utf8')).toContain(
        `hookrail-${app}`,
      );
    },
  );

  it('creates topics and ACLs in the secure profile as the administrator, never as an app', () => {
    expect(environment('kafka-acls')).toMatchObject({
      KAFKA_SASL_USERNAME: 'admin',
      KAFKA_SASL_PASSWORD_FILE: '/run/hookrail/kafka/admin.password',
    });
    expect(service('kafka-acls').join('\n')).toContain('kafka-acls.command.js --apply');
    for (const app of ['ingress', 'admin', 'relay', 'consumers'])
      expect(environment(`${app}-secure`).KAFKA_CREATE_TOPICS ?? 'false').toBe('false');
    expect(ports('kafka-secure')).toEqual(['127.0.0.1:9094:9094']);
  });

  it('runs the development webhook receiver, which the apps allow: an endpoint on it passes their SSRF rules', async () => {
    const receiver = service('webhook-receiver');
    expect(receiver.join('\n')).toContain('dist/apps/consumers/src/webhooks/dev-receiver/main.js');
    expect(environment('webhook-receiver')).toMatchObject({ WEBHOOK_RECEIVER_HOST: '0.0.0.0' });
    expect(ports('webhook-receiver')).toEqual(['127.0.0.1:4014:4014']);
    // The admin app and the CLI check a new endpoint's URL, the consumers every delivery's: each with its own rules.
    for (const name of ['admin', 'consumers']) {
      // DATABASE_URL comes from the shared x-app environment; the rules only from the service's own.
      const env = { DATABASE_URL: 'postgres://postgres@postgres:5432/hookrail', ...environment(name) };
      const guard = new SsrfGuard(ssrfPolicyOf(loadConfig(OutboundWebhooksEnv, env)));
      await expect(guard.checkNew('http://webhook-receiver:4014/hooks/orders')).resolves.toBeUndefined();
      // Only the receiver: the rest of the network stays refused.
      await expect(guard.checkNew('http://postgres:5432/')).rejects.toThrow(/port 5432 is not allowed/);
    }
  });
});
