import { projectTopics } from '@app/contracts';
import { deleteTopics, testKafka, uniqueName } from '@app/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

function topicsCreate(env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const { KAFKA_NAMESPACE: _namespace, TOPIC_PARTITIONS: _partitions, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'topics:create'],
      { cwd: root, env: { ...inherited, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

async function partitionsPerTopic(topics: string[]): Promise<Map<string, number>> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const present = topics.filter((topic) => existing.has(topic));
    if (present.length === 0) return new Map();
    const metadata = await admin.fetchTopicMetadata({ topics: present });
    return new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
  } finally {
    await admin.disconnect();
  }
}

describe('npm run topics:create', () => {
  it('creates every project topic and is idempotent', async () => {
    const first = await topicsCreate();
    expect(first).toMatchObject({ code: 0, output: expect.stringMatching(/^topics:create: /) });

    const existing = await partitionsPerTopic(projectTopics());
    for (const topic of projectTopics()) expect([topic, existing.has(topic)]).toEqual([topic, true]);

    const second = await topicsCreate();
    expect(second).toEqual({ code: 0, output: `topics:create: all ${projectTopics().length} topics already exist\n` });
  });

  it('prefixes every topic with KAFKA_NAMESPACE, as the consumers app names the topics it subscribes to', async () => {
    const namespace = `${uniqueName('topics-ns')}.`;
    const expected = projectTopics().map((topic) => `${namespace}${topic}`);
    try {
      const run = await topicsCreate({ KAFKA_NAMESPACE: namespace, TOPIC_PARTITIONS: '2' });
      expect(run).toMatchObject({ code: 0, output: expect.stringContaining(`created ${namespace}shop.orders`) });
      const partitions = await partitionsPerTopic(expected);
      expect(Object.fromEntries(partitions)).toEqual(Object.fromEntries(expected.map((topic) => [topic, 2])));
    } finally {
      await deleteTopics(expected);
    }
  });

  it('stops with one line naming a bad KAFKA_NAMESPACE and creates nothing', async () => {
    const run = await topicsCreate({ KAFKA_NAMESPACE: 'not a/namespace' });
    expect(run.code).toBe(1);
    expect(run.output).toBe(
      'topics:create: failed: configuration error: KAFKA_NAMESPACE is invalid: ' +
        'may hold only letters, digits, ".", "_" and "-"\n',
    );
  });
});
