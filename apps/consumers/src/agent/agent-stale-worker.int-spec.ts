import { findAgentTask } from '@app/agent-tasks';
import { AppProcess, cleanEnv, freePort, orderEvent, produce, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { FakeModelServer } from './dev-model/model.server';
import { agentProcessEnv, fencingToken, taskIn } from './testing/agent-fixtures';

const FENCED = [
  'stale worker: the task was claimed by another worker meanwhile; result discarded',
  'the task was claimed by another worker while the model ran; attempt abandoned',
];

describe('a stale agent worker (paused past its lease with SIGSTOP, then resumed)', () => {
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let model: FakeModelServer;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('agent-stale', 'agent');
    model = await FakeModelServer.start({ apiKey });
  });

  afterAll(async () => {
    await model?.close();
    await bed?.stop();
  });

  it('cannot overwrite the task another worker took over and completed: the fencing token turns it away', async () => {
    const staleMetricsPort = await freePort();
    const env = bed.processEnv(agentProcessEnv(model, apiKey));
    // The first call answers after 3 s, by which time its worker has been paused past the lease.
    model.configure({ nextLatenciesMs: [3_000] });
    const stale = AppProcess.start('consumers', cleanEnv({ ...env, METRICS_PORT: String(staleMetricsPort) }));
    const fresh: AppProcess[] = [];
    try {
      await stale.waitForLog('consumers started');
      const event = orderEvent('ord-stale-agent', { data: { note: 'deliver after 6pm please' } });
      await produce(bed.kafka, bed.topic, [event]);
      await waitFor(() => model.stats().inFlight === 1, { what: 'the first model call in flight' });
      expect(await findAgentTask(bed.dataSource, event.id)).toMatchObject({
        state: 'claimed',
        claimedBy: expect.stringContaining(`/${stale.child.pid}/`),
      });
      stale.signal('SIGSTOP');

      fresh.push(AppProcess.start('consumers', cleanEnv({ ...env, METRICS_PORT: '0' })));
      const done = await waitFor(taskIn(bed.dataSource, event.id, 'done'), {
        what: 'the task done by the second worker',
        timeoutMs: 30_000,
      });
      expect(done).toMatchObject({
        attempts: 2,
        claimedBy: expect.stringContaining(`/${fresh[0].child.pid}/`),
        result: { category: 'delivery' },
      });
      await waitFor(() => model.stats().completed === 2, { what: "the stale worker's answer written to its socket" });

      stale.signal('SIGCONT');
      await waitFor(() => stale.logLines().some((line) => FENCED.includes(String(line.msg))), {
        what: 'the stale worker turned away',
      });
      expect(await findAgentTask(bed.dataSource, event.id)).toEqual(done);
      expect(await fencingToken(bed.dataSource, event.id)).toBe('2');
      const metrics = await (await fetch(`http://127.0.0.1:${staleMetricsPort}/metrics`)).text();
      expect(metrics).toMatch(/^hookrail_agent_fenced_writes_total\{operation="(complete|renew)"\} 1$/m);
      expect(metrics).not.toMatch(/^hookrail_agent_attempts_total\{outcome="done"\}/m);
    } finally {
      stale.signal('SIGCONT');
      stale.signal('SIGKILL');
      for (const child of fresh) child.signal('SIGKILL');
    }
    await Promise.all([stale.exited, ...fresh.map((child) => child.exited)]);
  });
});
