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

/** Slots a late run fills in for the rates it missed (a run that came a little late, or an ingress restart). */
const MAX_CATCH_UP_SLOTS = 30;

/**
 * One run of the `ops-samples` job: samples the slots (aligned to the interval, so that two ingress instances agree on
 * them) that ended since the last sampled one, writes the points, and deletes points past the retention. Rates are
 * counted for each missed slot, up to 30 back, so a run that comes late leaves no hole; a level (lag, backlog) can
 * only be read now, so it gets the newest slot. A sampler that fails is logged and left out; the others still write.
 */
export async function sampleSlots(
  manager: EntityManager,
  settings: SampleSettings,
  logger: Logger,
): Promise<{ affected: number; points: number; deleted: number }> {
  const samples = new OpsSamplesRepository(manager);
  const interval = settings.intervalMs;
  const newest = Math.floor((Date.now() - SETTLE_MS) / interval) * interval;
  const latest = (await samples.latestSlot())?.getTime();
  const first =
    latest === undefined ? newest : Math.max(latest + interval, newest - (MAX_CATCH_UP_SLOTS - 1) * interval);
  const rows: OpsSampleRow[] = [];
  for (let end = first; end <= newest; end += interval) {
    const window: SampleWindow = {
      db: manager,
      from: new Date(end - interval),
      to: new Date(end),
      seconds: interval / 1000,
      lag: settings.lag,
    };
    for (const sampler of settings.samplers) {
      if (sampler.kind === 'level' && end !== newest) continue;
      try {
        for (const point of await sampler.sample(window))
          rows.push({ metric: sampler.metric, series: point.series, at: window.to, value: point.value });
      } catch (error) {
        logger.warn({ metric: sampler.metric, err: (error as Error).message }, 'chart sampler failed; slot left out');
      }
    }
  }
  const points = await samples.insert(rows);
  const deleted = await samples.deleteBefore(new Date(newest - settings.retentionMinutes * 60_000));
  return { affected: points + deleted, points, deleted };
}
