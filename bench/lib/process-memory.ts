import { readFileSync } from 'node:fs';

/** Peak resident set size of a process (VmHWM), in MB; Linux only. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}
