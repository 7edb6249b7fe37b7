import { findAgentTask } from '@app/agent-tasks';
import { freePort, orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { FakeModelServer } from './dev-model/model.server';
import { agentProcessEnv, fencingToken, taskIn } from './testing/agent-fixtures';

describe('agent worker killed mid-call (kill -9)', () => {
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let model: FakeModelServer;
  const processes = new TestProcesses();
  const startConsumersProcess = (env: Record<string, string>) => processes.start('consumers', env);

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('agent-crash', 'agent');
    model = await FakeModelServer.start({ apiKey });
  });

  afterAll(async () => {
    await processes.killAll();
    await model?.close();
    await bed?.stop();
  });

  it('reclaims the task after its lease runs out and completes it once', async () => {
    const metricsPort = await freePort();
    const env = bed.processEnv(agentProcessEnv(model, apiKey));
    model.configure({ nextLatenciesMs: [60_000] });
    const doomed = startConsumersProcess({ ...env, METRICS_PORT: '0' });
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-agent', { data: { note: 'gift for my mother' } });
    await produce(bed.kafka, bed.topic, [event]);

    await waitFor(() => model.stats().inFlight === 1, { what: 'the model call in flight' });
    const claimed = await findAgentTask(bed.dataSource, event.id);
    expect(claimed).toMatchObject({
      state: 'claimed',
      attempts: 1,
      claimedBy: expect.stringContaining(`/${doomed.child.pid}/`),
    });
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const survivor = startConsumersProcess({ ...env, METRICS_PORT: String(metricsPort) });
    try {
      const done = await waitFor(taskIn(bed.dataSource, event.id, 'done'), {
        what: 'the task done by the survivor',
        timeoutMs: 30_000,
      });
      expect(done).toMatchObject({
        attempts: 2,
        claimedBy: expect.stringContaining(`/${survivor.child.pid}/`),
        result: { category: 'gift' },
      });
      expect(await fencingToken(bed.dataSource, event.id)).toBe('2');
      expect(model.stats()).toMatchObject({ requests: 2, completed: 1, abandoned: 1 });

      await survivor.waitForLog('consumers started');
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/^hookrail_agent_lease_expiries_total 1$/m);
      expect(metrics).toMatch(/^hookrail_agent_tasks\{state="done"\} 1$/m);
      expect(metrics).toMatch(/^hookrail_agent_model_duration_seconds_count\{outcome="ok"\} 1$/m);
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });

  it("takes the task over as soon as its owner's session is gone, long before its lease ends", async () => {
    // A minute's lease: only the lease owner's lock, gone with the killed process's session, lets the survivor take
    // the task before the test's deadline.
    const env = bed.processEnv({ ...agentProcessEnv(model, apiKey), AGENT_LEASE_MS: '60000' });
    model.configure({ nextLatenciesMs: [60_000] });
    const doomed = startConsumersProcess({ ...env, METRICS_PORT: '0' });
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-agent-owner', { data: { note: 'gift for my father' } });
    await produce(bed.kafka, bed.topic, [event]);
    await waitFor(taskIn(bed.dataSource, event.id, 'claimed'), { what: 'the task claimed' });
    // Killed during its call, which takes the minute's latency; killed before it, the survivor's call would.
    await waitFor(() => model.stats().inFlight === 1, { what: 'the model call in flight' });
    const [{ lease_owner: owner }] = await bed.dataSource.query(
      `SELECT lease_owner FROM agent_tasks WHERE event_id = $1`,
      [event.id],
    );
    expect(owner).toEqual(expect.any(Number));
    doomed.signal('SIGKILL');
    await doomed.exited;
    const claimedAt = Date.now();

    const survivor = startConsumersProcess({ ...env, METRICS_PORT: '0' });
    try {
      const done = await waitFor(taskIn(bed.dataSource, event.id, 'done'), {
        what: 'the task done by the survivor',
        timeoutMs: 40_000,
      });
      expect(Date.now() - claimedAt).toBeLessThan(60_000);
      expect(done).toMatchObject({ attempts: 2, claimedBy: expect.stringContaining(`/${survivor.child.pid}/`) });
      await survivor.waitForLog('tasks of a process that is gone: due again without waiting for their lease');
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
