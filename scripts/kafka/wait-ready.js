// Waits until a kafkajs admin call succeeds against KAFKA_BROKERS, or fails after READY_TIMEOUT_SECONDS.
// READY_BROKER_COUNT: the cluster must list at least that many brokers; READY_NODE_ID: it must list that node.
// The secure broker is reached with the apps' own variables: KAFKA_TLS, KAFKA_TLS_CA_FILE, KAFKA_SASL_MECHANISM,
// KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.
const { readFileSync } = require('node:fs');
const { Kafka, logLevel } = require('kafkajs');

const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const deadline = Date.now() + Number(process.env.READY_TIMEOUT_SECONDS || 90) * 1000;
const brokerCount = Number(process.env.READY_BROKER_COUNT || 1);
const nodeId = process.env.READY_NODE_ID ? Number(process.env.READY_NODE_ID) : undefined;
const env = process.env;
const ssl =
  env.KAFKA_TLS === 'true' && (env.KAFKA_TLS_CA_FILE ? { ca: [readFileSync(env.KAFKA_TLS_CA_FILE, 'utf8')] } : true);
const sasl = env.KAFKA_SASL_MECHANISM && {
  mechanism: env.KAFKA_SASL_MECHANISM,
  username: env.KAFKA_SASL_USERNAME,
  password: env.KAFKA_SASL_PASSWORD,
};

async function main() {
  for (;;) {
    const admin = new Kafka({
      clientId: 'hookrail-ready',
      brokers,
      ssl,
      sasl,
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    }).admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      await admin.disconnect();
      const ids = cluster.brokers.map((broker) => broker.nodeId);
      if (ids.length >= brokerCount && (nodeId === undefined || ids.includes(nodeId))) return;
      throw new Error(`the cluster lists brokers [${ids.join(', ')}]`);
    } catch (error) {
      await admin.disconnect().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`no broker answered at ${brokers.join(',')}: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

main().catch((error) => {
  console.error(`kafka: ${error.message}`);
  process.exit(1);
});
