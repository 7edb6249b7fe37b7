import { ensureTopics } from '@app/kafka';
import { AppProcess, deleteTopics, testKafka, TopicReader, uniqueName, waitFor } from '@app/testing';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRelay } from '../../apps/relay/src/testing/relay-fixtures';
import { Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';
import { CatalogValidators } from './catalog-validators';

const project = path.resolve(__dirname, '../../examples/java-consumer');
/** Warm, the test takes seconds; the first Maven run on a machine may still resolve its plugins from Maven Central. */
const FIRST_BUILD_TIMEOUT_MS = 180_000;

/** `mvn compile` (offline once the local repository holds kafka-clients) and the classpath to run with. */
function buildJavaConsumer(): Promise<string> {
  const classpathFile = path.join(project, 'target', 'classpath.txt');
  return new Promise((resolve, reject) =>
    execFile(
      'mvn',
      ['-B', '-q', '-f', path.join(project, 'pom.xml'), 'compile', 'dependency:build-classpath', `-Dmdep.outputFile=${classpathFile}`],
      { timeout: FIRST_BUILD_TIMEOUT_MS },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`mvn failed: ${error.message}\n${stdout}${stderr}`))
          : resolve([path.join(project, 'target', 'classes'), readFileSync(classpathFile, 'utf8').trim()].join(path.delimiter)),
    ),
  );
}

function runJava(classpath: string, env: Record<string, string>): Promise<{ code: number | null; lines: any[]; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('java', ['-cp', classpath, 'dev.hookrail.examples.HookrailConsumer'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const lines = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
      resolve({ code, lines, stderr });
    });
  });
}

/**
 * The Java consumer of docs/consumers-in-other-languages.md, compiled with Maven and run against messages hookrail
 * published (ingress → outbox → relay → Kafka): a webhook's event and a producer's CloudEvent whose own id is another
 * producer's too, then a redelivery of it and a message that is not a CloudEvent.
 */
describe('a consumer in another language: the Java example with kafka-clients', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'hookrail-java-'));
  const group = uniqueName('java-consumer');
  const namespace = `${uniqueName('java')}.`;
  let topic: string;
  let ingress: Ingress;
  let relay: AppProcess;
  let reader: TopicReader;
  let deadLetters: TopicReader;
  let classpath: Promise<string>;

  beforeAll(async () => {
    classpath = buildJavaConsumer();
    classpath.catch(() => undefined); // awaited in the test
    // POST /events routes shop types to <namespace>shop.orders: the webhook source writes there too.
    topic = `${namespace}shop.orders`;
    await ensureTopics(testKafka(), [
      { topic, numPartitions: 1 },
      { topic: `${group}.dlt`, numPartitions: 1 },
    ]);
    const sources = path.join(directory, 'sources.json');
    writeFileSync(
      sources,
      JSON.stringify([
        { name: 'shop', scheme: 'standard-webhooks', secrets: [secrets.standard[0]], topic, aggregateIdPath: 'data.orderId' },
      ]),
    );
    ingress = await startIngress({ HOOKRAIL_SOURCES: sources, KAFKA_NAMESPACE: namespace });
    relay = startRelay(ingress.database.url);
    [reader, deadLetters] = await Promise.all([TopicReader.start(topic), TopicReader.start(`${group}.dlt`)]);
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await relay?.exited;
    await Promise.all([reader?.stop(), deadLetters?.stop()]);
    await ingress?.close();
    await deleteTopics([topic, `${group}.dlt`].filter(Boolean));
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads the CloudEvents headers and key, dedupes on ce_hookrailid, dead-letters what it cannot use, and what it read validates', async () => {
    const body = JSON.stringify({ type: 'shop.order.placed.v1', data: orderData('ord_java') });
    const accepted = await post(`${ingress.url}/webhooks/shop`, body, standardHeaders(secrets.standard[0], `msg_${randomUUID()}`, body));
    expect(accepted.status).toBe(202);
    await waitFor(() => reader.messages.length === 1, { what: 'the event on its topic', timeoutMs: 60_000 });
    // A producer's CloudEvent whose id is the webhook's hookrail id: the same ce_id, another event.
    const produced = await post(
      `${ingress.url}/events`,
      JSON.stringify({ specversion: '1.0', id: accepted.body.id, source: '/billing', type: 'shop.order.placed.v1', subject: 'ord_java2', data: orderData('ord_java2') }),
      { authorization: `Bearer ${secrets.producerToken}`, 'content-type': 'application/cloudevents+json' },
    );
    expect(produced.status).toBe(202);
    await waitFor(() => reader.messages.length === 2, { what: 'both events on their topic', timeoutMs: 60_000 });

    // A redelivery of the producer's event (as after a relay crash), then a record that is not a CloudEvent.
    const published = reader.messages[1];
    const producer = testKafka().producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: [
        { key: published.key, value: published.value, headers: published.headers },
        { key: 'poison', value: 'not json' },
      ],
    });
    await producer.disconnect();

    const run = await runJava(await classpath, {
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
      GROUP: group,
      TOPICS: topic,
      MAX_MESSAGES: '4',
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    const events = run.lines.filter((line) => line.event).map((line) => line.event);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      topic,
      key: 'ord_java',
      headers: expect.objectContaining({
        ce_id: accepted.body.id,
        ce_hookrailid: accepted.body.id,
        ce_type: 'shop.order.placed.v1',
      }),
    });
    expect(events[1]).toMatchObject({
      key: 'ord_java2',
      headers: expect.objectContaining({ ce_id: accepted.body.id, ce_hookrailid: produced.body.id, ce_source: '/billing' }),
    });
    expect(run.lines.filter((line) => line.duplicate)).toEqual([{ duplicate: produced.body.id }]);
    expect(run.lines.filter((line) => line.deadLettered)).toEqual([
      { deadLettered: { offset: 3, error: 'missing header ce_specversion' } },
    ]);

    const validators = new CatalogValidators();
    expect(events.map((event) => validators.problems(event))).toEqual([[], []]);

    await waitFor(() => deadLetters.messages.length === 1, { what: `the dead letter on ${group}.dlt` });
    expect(deadLetters.messages[0]).toMatchObject({
      key: 'poison',
      value: 'not json',
      headers: expect.objectContaining({ hookrail_dlt_group: group, hookrail_dlt_original_topic: topic }),
    });
    expect(validators.deadLetterProblems(deadLetters.messages[0].headers)).toEqual([]);
  }, FIRST_BUILD_TIMEOUT_MS);
});
