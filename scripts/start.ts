// npm start — everything on one machine: Kafka (when none is reachable), migrations, topics, and the three apps
// with prefixed logs. Ctrl-C stops the apps, and the broker too when this command started it.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from './lib/repo-root';
import { tcpReachable } from './lib/tcp-reachable';
import concurrently from 'concurrently';

const root = repoRoot();

function step(script: string): void {
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`start: npm run ${script} failed; not starting the apps`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/hookrail';
  process.env.KAFKA_BROKERS ||= '127.0.0.1:9092';
  process.env.HOOKRAIL_SOURCES ||= path.join(root, 'config/sources.example.json');
  // The apps write to concurrently's pipes, not to this terminal: tell them to write readable, coloured lines anyway.
  if (process.stdout.isTTY) {
    process.env.LOG_FORMAT ||= 'pretty';
    process.env.FORCE_COLOR ||= '1';
  }
  if (!process.env.SHOP_WEBHOOK_SECRET) {
    process.env.SHOP_WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
    console.log(
      `start: SHOP_WEBHOOK_SECRET was not set; this run's secret for the "shop" source is ${process.env.SHOP_WEBHOOK_SECRET}`,
    );
  }
  // Demo orders reserve stock that nobody stocked: every SKU starts with this many units at its first reservation.
  process.env.INVENTORY_INITIAL_STOCK ||= '1000';
  if (!process.env.ADMIN_TOKEN) {
    process.env.ADMIN_TOKEN = randomBytes(24).toString('hex');
    console.log(`start: ADMIN_TOKEN was not set; this run's admin token is ${process.env.ADMIN_TOKEN}`);
  }
  // Local development: outbound webhooks may go to receivers on this machine, over http. Both apps log the exception.
  process.env.OUTBOUND_WEBHOOKS_ALLOW_HOSTS ??= '127.0.0.1,::1,localhost';
  process.env.OUTBOUND_WEBHOOKS_ALLOW_HTTP ??= 'true';
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
      { command: 'npm run --silent start:ingress', name: 'ingress', prefixColor: 'cyan' },
      { command: 'npm run --silent start:relay', name: 'relay', prefixColor: 'magenta' },
      { command: 'npm run --silent start:consumers', name: 'consumers', prefixColor: 'green' },
      // The notifier and the agent talk to these development servers unless a real provider or model is configured.
      ...(process.env.EMAIL_PROVIDER_URL
        ? []
        : [{ command: 'npm run --silent dev:email-provider', name: 'email', prefixColor: 'yellow' }]),
      ...(process.env.MODEL_BASE_URL
        ? []
        : [{ command: 'npm run --silent dev:model', name: 'model', prefixColor: 'blue' }]),
      // The fulfilment saga's payments and shipping participants, likewise.
      ...(process.env.PAYMENT_PROVIDER_URL
        ? []
        : [{ command: 'npm run --silent dev:payment-provider', name: 'payments', prefixColor: 'white' }]),
      ...(process.env.SHIPPING_PROVIDER_URL
        ? []
        : [{ command: 'npm run --silent dev:shipping-provider', name: 'shipping', prefixColor: 'gray' }]),
    ],
    { prefix: 'name', killOthersOn: ['failure'], cwd: root },
  );
  const ok = await result.then(
    () => true,
    () => false,
  );
  if (startedKafka) execFileSync('bash', [path.join(root, 'scripts/kafka/kafka.sh'), 'down'], { stdio: 'inherit' });
  process.exit(ok ? 0 : 1);
}

main().catch((error: Error) => {
  console.error(`start: ${error.message}`);
  process.exit(1);
});
