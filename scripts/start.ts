// npm start — the development profile: everything on one machine. Kafka (when none is reachable), migrations,
// topics, the four apps and the development servers (providers, model, webhook receiver) with prefixed logs; an app
// that exits is started again. Secrets are generated once and kept in .hookrail/dev.env; a short banner says where
// to go once everything is ready. One Ctrl-C stops the apps gracefully, and the broker when this command started it.
import { developmentEnvFile, readDevelopmentEnv, repoRoot, writeDevelopmentEnv } from '@app/config';
import { DEFAULT_DATABASE_URL } from '@app/db';
import concurrently, { ConcurrentlyCommandInput } from 'concurrently';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { passOnCtrlCOnce } from './lib/ctrl-c-once';
import { tcpReachable } from './lib/tcp-reachable';
import { waitUntilReady } from './lib/wait-until-ready';

const root = repoRoot();
const profileFile = developmentEnvFile(process.env, root) as string;
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;

/**
 * The profile's variables: generated secrets, outbound webhooks allowed to the development receiver, and the
 * database they belong to. Written when something in it is new.
 */
function developmentProfile(): Record<string, string> {
  const kept = readDevelopmentEnv(profileFile) ?? {};
  const profile = {
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    SHOP_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '127.0.0.1,::1,localhost',
    OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true',
    OUTBOUND_WEBHOOKS_ALLOW_PORTS: process.env.WEBHOOK_RECEIVER_PORT || '4014',
    ...kept,
    DATABASE_URL: process.env.DATABASE_URL as string,
  };
  if (Object.entries(profile).some(([name, value]) => kept[name] !== value)) writeDevelopmentEnv(profileFile, profile);
  return profile;
}

/** A package.json script run by node itself (no npm or shell in between, so that a signal reaches it once). */
function command(script: string, name: string, prefixColor: string): ConcurrentlyCommandInput {
  return { command: `exec ${scripts[script]}`, name, prefixColor };
}

function step(script: string): void {
  const result = spawnSync('/bin/sh', ['-c', scripts[script]], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`start: npm run ${script} failed; not starting the apps`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;
  process.env.KAFKA_BROKERS ||= '127.0.0.1:9092';
  process.env.HOOKRAIL_SOURCES ||= path.join(root, 'config/sources.example.json');
  // The apps write to concurrently's pipes, not to this terminal: tell them to write readable, coloured lines anyway.
  if (process.stdout.isTTY) {
    process.env.LOG_FORMAT ||= 'pretty';
    process.env.FORCE_COLOR ||= '1';
  }
  const profile = developmentProfile();
  for (const [name, value] of Object.entries(profile)) process.env[name] ??= value;
  // Demo orders reserve stock that nobody stocked: every SKU starts with this many units at its first reservation.
  process.env.INVENTORY_INITIAL_STOCK ||= '1000';
  let startedKafka = false;
  if (!(await tcpReachable(process.env.KAFKA_BROKERS.split(',')[0]))) {
    execFileSync('bash', [path.join(root, 'scripts/kafka/kafka.sh'), 'up'], { stdio: 'inherit' });
    startedKafka = true;
  }
  step('db:migrate');
  step('topics:create');

  process.on('SIGINT', () => undefined); // concurrently forwards it to the apps; we clean up after they exit
  process.on('SIGTERM', () => undefined);
  const { result } = concurrently(
    [
      command('start:ingress', 'ingress', 'cyan'),
      command('start:admin', 'admin', 'cyanBright'),
      command('start:relay', 'relay', 'magenta'),
      command('start:consumers', 'consumers', 'green'),
      // The notifier and the agent talk to these development servers unless a real provider or model is configured.
      ...(process.env.EMAIL_PROVIDER_URL ? [] : [command('dev:email-provider', 'email', 'yellow')]),
      ...(process.env.MODEL_BASE_URL ? [] : [command('dev:model', 'model', 'blue')]),
      // The fulfilment saga's payments and shipping participants, likewise.
      ...(process.env.PAYMENT_PROVIDER_URL ? [] : [command('dev:payment-provider', 'payments', 'white')]),
      ...(process.env.SHIPPING_PROVIDER_URL ? [] : [command('dev:shipping-provider', 'shipping', 'gray')]),
      // Where the README's outbound endpoint points.
      command('dev:webhook-receiver', 'receiver', 'blueBright'),
    ],
    {
      prefix: 'name',
      cwd: root,
      // An app that exits (a dependency lost during start-up, a crash) is started again, after 1, 2, 4… seconds.
      restartTries: 5,
      restartDelay: 'exponential',
      // Each in its own process group: the terminal's Ctrl-C reaches this process alone, which passes it on once.
      spawn: (line, options) => spawn('/bin/sh', ['-c', line], { ...options, detached: true }),
    },
  );
  passOnCtrlCOnce();
  void waitUntilReady(readiness(), () => banner(Date.now() - started));
  const ok = await result.then(
    () => true,
    () => false,
  );
  if (startedKafka) execFileSync('bash', [path.join(root, 'scripts/kafka/kafka.sh'), 'down'], { stdio: 'inherit' });
  process.exit(ok ? 0 : 1);
}

/** What the banner waits for: each app's readiness (the relay has only its metrics). */
function readiness(): string[] {
  const ingress = process.env.PORT || '3000';
  return [
    `http://127.0.0.1:${ingress}/readyz`,
    `http://127.0.0.1:${process.env.ADMIN_PORT || '3100'}/readyz`,
    `http://127.0.0.1:${process.env.METRICS_PORT || '9464'}/metrics`,
    `http://127.0.0.1:${process.env.METRICS_PORT || '9465'}/readyz`,
  ];
}

function banner(elapsedMs: number): void {
  const ingress = `http://127.0.0.1:${process.env.PORT || '3000'}`;
  const admin = `http://127.0.0.1:${process.env.ADMIN_PORT || '3100'}`;
  const receiver = `http://127.0.0.1:${process.env.WEBHOOK_RECEIVER_PORT || '4014'}`;
  console.log(
    [
      '',
      `hookrail is ready (${(elapsedMs / 1000).toFixed(1)} s)`,
      `  console       ${admin}/admin   (the operator plane, on its own port)`,
      `  admin token   ${process.env.ADMIN_TOKEN}`,
      `  shop secret   ${process.env.SHOP_WEBHOOK_SECRET}   (source "shop": ${ingress}/webhooks/shop)`,
      `  kept in       ${path.relative(process.cwd(), profileFile)} (the same on every start; delete it for new secrets)`,
      '  in a second shell:',
      '    npm run webhook:send                 a signed order webhook',
      '    npx hookrail lag                     the consumer groups',
      `    npx hookrail endpoints add ${receiver}/hooks/orders --event-type 'shop.order.*'`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch((error: Error) => {
  console.error(`start: ${error.message}`);
  process.exit(1);
});
