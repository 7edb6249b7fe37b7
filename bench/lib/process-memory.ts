import { readFileSync } from 'node:fs';

/** The process and its descendants (a clustered app's workers), from /proc; Linux only. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // gone, or no such file on this kernel: the process alone
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Peak resident set size of a process (VmHWM), in MB; with its descendants, the largest of them. Linux only. */
export function peakRssMb(pid: number): number {
  let peak = NaN;
  for (const member of processTree(pid)) {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${member}/status`, 'utf8'));
    if (match) peak = Math.max(Number.isNaN(peak) ? 0 : peak, Number(match[1]) / 1024);
  }
  return peak;
}

/** Resident set size now (VmRSS), in MB, of the process and its descendants summed. Linux only. */
export function rssMb(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${member}/status`, 'utf8'));
    if (match) total += Number(match[1]) / 1024;
  }
  return total;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) used so far by the process alone, in milliseconds (0 once it has exited). Linux only. */
export function ownCpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND; // utime, stime
  } catch {
    return 0;
  }
}

/** CPU time (user + system) used so far by the process and its descendants, in milliseconds. Linux only. */
export function cpuTimeMs(pid: number): number {
  return processTree(pid).reduce((total, member) => total + ownCpuTimeMs(member), 0);
}
