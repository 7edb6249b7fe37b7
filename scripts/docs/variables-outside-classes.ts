/**
 * The variables no configuration class reads, for docs/configuration-development.md: the development profile's, the development
 * servers', the local Kafka script's, the chaos run's and the demo sender's. Each names the file that reads it; the
 * configuration reference's test fails when that file no longer does, or when one of these files reads a variable the
 * page does not give.
 */
export interface VariableOutsideClasses {
  name: string;
  /** As the page shows it: a value in backticks, or a phrase. */
  default: string;
  meaning: string;
  /** The file that reads it, from the repository root. */
  readBy: string;
}

export interface SectionOutsideClasses {
  title: string;
  intro: string;
  variables: VariableOutsideClasses[];
}

const EMAIL = 'apps/consumers/src/notifier/dev-provider/main.ts';
const MODEL = 'apps/consumers/src/agent/dev-model/main.ts';
const PAYMENT = 'apps/consumers/src/payments/dev-provider/main.ts';
const SHIPPING = 'apps/consumers/src/shipping/dev-provider/main.ts';
const RECEIVER = 'apps/consumers/src/webhooks/dev-receiver/main.ts';
const KAFKA = 'scripts/kafka/kafka.sh';
const CHAOS = 'test/chaos/chaos-config.ts';
const SENDER = 'scripts/send-webhook.ts';
const DEVELOPMENT_ENV = 'libs/config/src/development-env.ts';

/** A development server's port (and what follows from it), address and added latency. */
function devServer(
  prefix: string,
  port: number,
  script: string,
  each: string,
  readBy: string,
  portNote?: string,
): VariableOutsideClasses[] {
  const portMeaning = `Port of \`npm run ${script}\`${portNote ? `; ${portNote}` : ''}.`;
  return [
    { name: `${prefix}_PORT`, default: `\`${port}\``, meaning: portMeaning, readBy },
    { name: `${prefix}_HOST`, default: '`127.0.0.1`', meaning: 'Its address.', readBy },
    { name: `${prefix}_LATENCY_MS`, default: '`0`', meaning: `Added to every ${each}.`, readBy },
  ];
}

export const SECTIONS_OUTSIDE_CLASSES: SectionOutsideClasses[] = [
  {
    title: 'Development profile',
    intro: '`npm start` runs everything on one machine with a development profile.',
    variables: [
      {
        name: 'HOOKRAIL_DEV_ENV',
        default: '`.hookrail/dev.env`',
        meaning: 'Where `npm start` keeps its development profile (git-ignored), from the repository root.',
        readBy: DEVELOPMENT_ENV,
      },
    ],
  },
  {
    title: 'Development servers',
    intro:
      "The stand-ins for the notifier's email provider (`npm run dev:email-provider`), the agent's model " +
      "(`dev:model`), the saga's payment provider and carrier (`dev:payment-provider`, `dev:shipping-provider`) and " +
      'an outbound-webhook endpoint (`dev:webhook-receiver`); `npm start` runs each (a provider or the model only ' +
      "when its `*_URL` is not set). A provider's or the model's `*_API_KEY` (see " +
      '[Consumers](configuration.md#consumers)), when set, is required of every call as a bearer token, as by a real provider.',
    variables: [
      ...devServer('EMAIL_PROVIDER', 4010, 'dev:email-provider', 'send', EMAIL),
      ...devServer(
        'MODEL',
        4011,
        'dev:model',
        'answer',
        MODEL,
        "the agent's `MODEL_BASE_URL` is `http://127.0.0.1:<port>/v1`",
      ),
      {
        name: 'MODEL_FAILURE_RATE',
        default: '`0`',
        meaning: 'Share of calls (0 to 1) that fail with `503`.',
        readBy: MODEL,
      },
      ...devServer('PAYMENT_PROVIDER', 4012, 'dev:payment-provider', 'call', PAYMENT),
      ...devServer('SHIPPING_PROVIDER', 4013, 'dev:shipping-provider', 'call', SHIPPING),
      ...devServer('WEBHOOK_RECEIVER', 4014, 'dev:webhook-receiver', 'answer', RECEIVER),
      {
        name: 'WEBHOOK_RECEIVER_FAILURE_RATE',
        default: '`0`',
        meaning: 'Share of webhooks (0 to 1) answered `503`.',
        readBy: RECEIVER,
      },
    ],
  },
  {
    title: 'Test webhooks',
    intro: "`npm run webhook:send` sends one signed delivery to the local ingress's `shop` source.",
    variables: [
      {
        name: 'SHOP_WEBHOOK_SECRET',
        default: 'required',
        meaning:
          "The `shop` source's signing secret, as the ingress was started with (`config/sources.example.json` reads " +
          'it as `env:SHOP_WEBHOOK_SECRET`).',
        readBy: SENDER,
      },
      { name: 'INGRESS_URL', default: '`http://127.0.0.1:3000`', meaning: 'The ingress to send to.', readBy: SENDER },
    ],
  },
  {
    title: 'Local Kafka',
    intro:
      '`scripts/kafka/kafka.sh` (`npm run kafka:up`, `kafka:down`, `kafka:status`), for machines without Docker: ' +
      'one broker, or a cluster of `KAFKA_NODES` brokers.',
    variables: [
      {
        name: 'KAFKA_NODES',
        default: '`1`',
        meaning: 'Brokers to run, 1 to 9; more than one is cluster mode.',
        readBy: KAFKA,
      },
      { name: 'KAFKA_PORT', default: '`9092`', meaning: 'Port of the single broker.', readBy: KAFKA },
      {
        name: 'KAFKA_CONTROLLER_PORT',
        default: '`9093`',
        meaning: 'KRaft controller port of the single broker.',
        readBy: KAFKA,
      },
      {
        name: 'KAFKA_STATE_DIR',
        default: '`.kafka`',
        meaning: "The single broker's config, data, log and pid file.",
        readBy: KAFKA,
      },
      {
        name: 'KAFKA_CLUSTER_PORT',
        default: '`19092`',
        meaning: 'First broker port of the cluster; node N listens on this + N − 1.',
        readBy: KAFKA,
      },
      {
        name: 'KAFKA_CLUSTER_CONTROLLER_PORT',
        default: '`19192`',
        meaning: 'First KRaft controller port of the cluster.',
        readBy: KAFKA,
      },
      {
        name: 'KAFKA_CLUSTER_STATE_DIR',
        default: '`.kafka-cluster`',
        meaning: "The cluster's config, data, logs and pid files; never the single broker's.",
        readBy: KAFKA,
      },
      {
        name: 'KAFKA_CACHE_DIR',
        default: '`.cache`',
        meaning: 'Where the Kafka jars are resolved to, once.',
        readBy: KAFKA,
      },
      { name: 'KAFKA_HEAP', default: '`512m`', meaning: 'Heap of each broker.', readBy: KAFKA },
      {
        name: 'KAFKA_READY_TIMEOUT',
        default: '`90`',
        meaning: 'Seconds `up` and `start N` wait for the brokers to serve.',
        readBy: KAFKA,
      },
    ],
  },
  {
    title: 'Chaos run',
    intro:
      '`npm run chaos` runs the whole system while its parts fail, then checks that nothing was lost or done twice.',
    variables: [
      {
        name: 'CHAOS_SEED',
        default: 'random',
        meaning: 'The seed of the fault schedule and the traffic; printed, to replay a run.',
        readBy: CHAOS,
      },
      {
        name: 'CHAOS_SECONDS',
        default: '`120`',
        meaning: 'Length of the traffic (at least 30); every fault happens within it.',
        readBy: CHAOS,
      },
      {
        name: 'CHAOS_RATE',
        default: '`30`',
        meaning: 'New events per second (duplicates and retries come on top).',
        readBy: CHAOS,
      },
      {
        name: 'CHAOS_DRAIN_SECONDS',
        default: '`180`',
        meaning: 'How long the system may take to drain after the traffic and the last fault.',
        readBy: CHAOS,
      },
      {
        name: 'CHAOS_BUILD',
        default: '`true`',
        meaning: '`false` skips `npm run build` (the run starts the apps from `dist/`).',
        readBy: CHAOS,
      },
      {
        name: 'CHAOS_PG_URL',
        default: '`postgres://postgres@127.0.0.1:5432/postgres`',
        meaning: 'The server the run makes its database on.',
        readBy: CHAOS,
      },
    ],
  },
];
