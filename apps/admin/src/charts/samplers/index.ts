import { ChartSampler } from '../chart-sampler';
import { acceptedSampler } from './accepted.sampler';
import { appliedSampler } from './applied.sampler';
import { backlogSampler } from './backlog.sampler';
import { deadLettersSampler } from './dead-letters.sampler';
import { lagSampler } from './lag.sampler';
import { publishedSampler } from './published.sampler';

/** The console's charts, in the order it shows them. A new chart: a sampler file beside these and one line here. */
export const CHART_SAMPLERS: readonly ChartSampler[] = [
  acceptedSampler,
  publishedSampler,
  appliedSampler,
  lagSampler,
  backlogSampler,
  deadLettersSampler,
];
