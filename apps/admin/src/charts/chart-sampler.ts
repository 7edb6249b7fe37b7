import { EntityManager } from 'typeorm';

/** What a sampler reads from for one slot. */
export interface SampleWindow {
  db: EntityManager;
  /** The slot: [from, to). */
  from: Date;
  to: Date;
  seconds: number;
  /** Total lag per consumer group, measured through Kafka (undefined while Kafka does not answer). */
  lag: () => Promise<Map<string, number> | undefined>;
}

export interface SamplePoint {
  /** The series within the chart (e.g. a consumer group); '' for a chart with one line. */
  series: string;
  value: number;
}

/**
 * One console chart: how to sample its value(s) for a slot. A rate counts what the database recorded in the slot
 * (received_at, published_at, processed_at, dead_at…) and divides by its length, so it covers every replica of every
 * app; a level (lag, backlog) is read at the slot's end. A new chart is a `<name>.sampler.ts` in `samplers/` and one
 * line in `samplers/index.ts`; the console draws every chart the API returns.
 */
export interface ChartSampler {
  /** Key in ops_samples. */
  metric: string;
  title: string;
  /** Shown beside the values: `/s`, `/min`, `messages`, `rows`. */
  unit: string;
  /** `rate`: a series without a point in a sampled slot had nothing (0); `level`: its value is unknown there. */
  kind: 'rate' | 'level';
  sample(window: SampleWindow): Promise<SamplePoint[]>;
}
