import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ChartSampler, SampleWindow } from './chart-sampler';
import { OpsSampleRow, OpsSamplesRepository } from './ops-samples.repository';

/** Leaves a second for the transactions that started inside a slot to commit before the slot is counted. */
const SETTLE_MS = 1000;

export interface SampleSettings {
  intervalMs: number;
  retentionMinutes: number;
  samplers: readonly ChartSampler[];
  lag: SampleWindow['lag'];
}

/**
 * One run of the `ops-samples` job: samples the last complete slot (aligned to the interval, so that two ingress
 * instances agree on it) with every chart sampler, writes the points, and deletes points past the retention. A
 * sampler that fails is logged and left out; the others still write.
 */
export async function sampleSlot(
  manager: EntityManager,
  settings: SampleSettings,
  logger: Logger,
): Promise<{ affected: number; points: number; deleted: number }> {
  const samples = new OpsSamplesRepository(manager);
  const to = new Date(Math.floor((Date.now() - SETTLE_MS) / settings.intervalMs) * settings.intervalMs);
  const from = new Date(to.getTime() - settings.intervalMs);
  let points = 0;
  if (!(await samples.slotExists(to))) {
    const window: SampleWindow = { db: manager, from, to, seconds: settings.intervalMs / 1000, lag: settings.lag };
    const rows: OpsSampleRow[] = [];
    for (const sampler of settings.samplers) {
      try {
        for (const point of await sampler.sample(window))
          rows.push({ metric: sampler.metric, series: point.series, at: to, value: point.value });
      } catch (error) {
        logger.warn({ metric: sampler.metric, err: (error as Error).message }, 'chart sampler failed; slot left out');
      }
    }
    points = await samples.insert(rows);
  }
  const deleted = await samples.deleteBefore(new Date(to.getTime() - settings.retentionMinutes * 60_000));
  return { affected: points + deleted, points, deleted };
}
