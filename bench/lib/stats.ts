/** Percentile of sorted-or-not samples (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summary(samples: number[]): { p50: number; p99: number; max: number } {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), max: percentile(samples, 100) };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
