import { SourceRejectionCount } from './source-rejections.repository';

/** The sources whose rejections are not configured webhook sources. */
export const CLOUDEVENTS_SOURCE = 'cloudevents';
export const UNKNOWN_SOURCE = 'unknown';

/** What is kept of one source's rejected deliveries. */
export interface SourceRejectionsSummary {
  source: string;
  /** Rejections kept (at most the ingress's REJECTIONS_KEPT_PER_SOURCE). */
  kept: number;
  lastAt: Date | null;
  /** Of those kept, how many per reason. */
  byReason: Record<string, number>;
}

/** The counts per source and reason folded into one summary per source, for `sources` (empty ones included). */
export function summarizeRejections(
  counts: readonly SourceRejectionCount[],
  sources: readonly string[] = [],
): SourceRejectionsSummary[] {
  const bySource = new Map<string, SourceRejectionsSummary>();
  const of = (source: string) =>
    bySource.get(source) ?? bySource.set(source, { source, kept: 0, lastAt: null, byReason: {} }).get(source)!;
  for (const source of sources) of(source);
  for (const { source, reason, count, lastAt } of counts) {
    const summary = of(source);
    summary.kept += count;
    summary.byReason[reason] = count;
    if (!summary.lastAt || lastAt > summary.lastAt) summary.lastAt = lastAt;
  }
  return [...bySource.values()];
}
