import { Database } from '@app/db';
import { Inject, Injectable } from '@nestjs/common';
import { malformed } from '@app/http';
import { OpsSamplesRepository } from './ops-samples.repository';
import { OPS_SAMPLE_SETTINGS, OpsSampleSettings } from './ops-samples.service';
import { CHART_SAMPLERS } from './samplers';

export interface ChartsAnswer {
  intervalMs: number;
  /** The sampled slots' ends, Unix seconds, oldest first; every series has one value (or null) per slot. */
  times: number[];
  charts: Array<{
    metric: string;
    title: string;
    unit: string;
    kind: 'rate' | 'level';
    series: Array<{ name: string; values: Array<number | null> }>;
  }>;
}

/** GET /admin/charts?minutes=60: the sampled charts of the last minutes, aligned on the same slots. */
@Injectable()
export class GetChartsUseCase {
  constructor(
    private readonly database: Database,
    @Inject(OPS_SAMPLE_SETTINGS) private readonly settings: OpsSampleSettings,
  ) {}

  async execute(minutesText: string | undefined): Promise<ChartsAnswer> {
    const minutes = minutesText === undefined ? 60 : Number(minutesText);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > this.settings.retentionMinutes)
      throw malformed(`minutes must be a whole number from 1 to ${this.settings.retentionMinutes}`);
    const rows = await new OpsSamplesRepository((await this.database.connection()).manager).since(minutes);
    const times = [...new Set(rows.map((row) => row.at.getTime()))].sort((a, b) => a - b);
    const slot = new Map(times.map((time, index) => [time, index]));
    const charts = CHART_SAMPLERS.map(({ metric, title, unit, kind }) => {
      const bySeries = new Map<string, Array<number | null>>();
      // Every slot in `times` was sampled: a rate with no point there counted nothing.
      const empty = kind === 'rate' ? 0 : null;
      for (const row of rows.filter((candidate) => candidate.metric === metric)) {
        if (!bySeries.has(row.series)) bySeries.set(row.series, new Array<number | null>(times.length).fill(empty));
        bySeries.get(row.series)![slot.get(row.at.getTime())!] = Math.round(row.value * 1000) / 1000;
      }
      const series = [...bySeries].map(([name, values]) => ({ name, values }));
      return { metric, title, unit, kind, series };
    });
    return { intervalMs: this.settings.intervalMs, times: times.map((time) => time / 1000), charts };
  }
}
