import http from 'node:http';

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  latenciesMs: number[];
  statuses: Map<number, number>;
  elapsedMs: number;
}

/** Answers with `status` per second of the run. */
export function perSecond(result: LoadResult, status: number): number {
  return ((result.statuses.get(status) ?? 0) / result.elapsedMs) * 1000;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function send(port: number, request: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: request.path, headers: request.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * Open-loop load at a fixed rate: request i is due at start + i/rate, and its latency is measured from that due
 * time (so a stall shows up in the figures instead of silently lowering the rate).
 */
export async function fixedRate(port: number, requests: LoadRequest[], ratePerSecond: number): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const statuses = new Map<number, number>();
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  let next = 0;
  while (next < requests.length) {
    const now = performance.now();
    const due = Math.min(requests.length, Math.floor(((now - start) / 1000) * ratePerSecond) + 1);
    for (; next < due; next += 1) {
      const dueAt = start + (next / ratePerSecond) * 1000;
      inFlight.push(
        send(port, requests[next]).then((status) => {
          latenciesMs.push(performance.now() - dueAt);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return { latenciesMs, statuses, elapsedMs: performance.now() - start };
}

/** Closed-loop load: `concurrency` workers send back to back until the requests run out. */
export async function saturate(port: number, requests: LoadRequest[], concurrency: number): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const request = requests[next++];
        const sentAt = performance.now();
        const status = await send(port, request);
        latenciesMs.push(performance.now() - sentAt);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { latenciesMs, statuses, elapsedMs: performance.now() - start };
}
