import { waitFor } from '@app/testing';
import { Gauge, Registry } from 'prom-client';
import { DependencyProbe } from './dependency.probe';

describe('the dependency probe', () => {
  const registry = new Registry();
  const gauge = new Gauge({
    name: 'hookrail_dependency_up',
    help: 'test',
    labelNames: ['app', 'dependency'] as const,
    registers: [registry],
  });
  const value = async (dependency: string) =>
    (await gauge.get()).values.find((sample) => sample.labels.dependency === dependency)?.value;

  it('reports what the wait saw, leaves an unchecked dependency out, then checks them itself', async () => {
    let kafkaUp = false;
    const postgres = { name: 'Postgres', label: 'postgres', check: async () => undefined };
    const kafka = {
      name: 'Kafka',
      label: 'kafka',
      check: async () => {
        if (!kafkaUp) throw new Error('ECONNREFUSED');
      },
    };
    const probe = new DependencyProbe(gauge, 'relay', [postgres, kafka], 20);

    probe.record(postgres, false);
    expect(await value('postgres')).toBe(0);
    expect(await value('kafka')).toBeUndefined();

    probe.start();
    await waitFor(async () => (await value('postgres')) === 1 && (await value('kafka')) === 0, {
      what: 'postgres 1 and kafka 0',
    });
    kafkaUp = true;
    await waitFor(async () => (await value('kafka')) === 1, { what: 'kafka 1' });
    await probe.stop();
  });
});
