import http from 'node:http';
import { LoadRequest } from '../lib/http-load';
import { summary } from '../lib/stats';

/** One answer of the burst phase. */
export interface BurstAnswer {
  status: number;
  latencyMs: number;
  retryAfter: boolean;
  /** The `error` of a 4xx/5xx body, and for `overloaded` its reason. */
  error?: string;
  reason?: string;
  mayBeRecorded?: boolean;
  senderId: string;
}

export interface BurstResult {
  answers: BurstAnswer[];
  elapsedMs: number;
}

/**
 * At most 2,000 senders at once: "2,000 at once" means 2,000 requests open at the same moment, and in the overload a
 * request waits here for a free socket, as a sender's own queue would, instead of this process opening tens of
 * thousands of connections, running out of ports and descriptors, and counting its own failures as the ingress's.
 */
export const MAX_SENDERS = 2_000;
/**
 * Each sender keeps its connection between requests: with Node's default of 256 idle sockets kept, a lull closed the
 * rest and the next requests connected anew, some of them seconds late (the overload's stragglers, up to 48 s).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SENDERS, maxFreeSockets: MAX_SENDERS });

/** An answer's latency runs from its due time, or from when its request got a socket if that was later. */
function sendDetailed(port: number, request: LoadRequest, dueAt: number): Promise<BurstAnswer> {
  const senderId = request.headers['webhook-id'];
  return new Promise((resolve) => {
    let sentAt = dueAt;
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: request.path, headers: request.headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = status >= 400 && text ? (JSON.parse(text) as Record<string, unknown>) : {};
          resolve({
            status,
            latencyMs: performance.now() - sentAt,
            retryAfter: res.headers['retry-after'] !== undefined,
            error: body.error as string | undefined,
            reason: body.reason as string | undefined,
            mayBeRecorded: body.mayBeRecorded === true,
            senderId,
          });
        });
      },
    );
    req.on('socket', () => (sentAt = Math.max(dueAt, performance.now())));
    req.on('error', () => resolve({ status: 0, latencyMs: performance.now() - sentAt, retryAfter: false, senderId }));
    req.end(request.body);
  });
}

/** Every request at the same moment; each latency from that moment. */
export async function allAtOnce(port: number, requests: LoadRequest[]): Promise<BurstResult> {
  const start = performance.now();
  const answers = await Promise.all(requests.map((request) => sendDetailed(port, request, start)));
  return { answers, elapsedMs: performance.now() - start };
}

/** Open loop at a fixed rate, each latency from the request's due time (a stall shows in the figures). */
export async function atRate(port: number, requests: LoadRequest[], ratePerSecond: number): Promise<BurstResult> {
  const start = performance.now();
  const inFlight: Array<Promise<BurstAnswer>> = [];
  let next = 0;
  while (next < requests.length) {
    const due = Math.min(requests.length, Math.floor(((performance.now() - start) / 1000) * ratePerSecond) + 1);
    for (; next < due; next += 1)
      inFlight.push(sendDetailed(port, requests[next], start + (next / ratePerSecond) * 1000));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const answers = await Promise.all(inFlight);
  return { answers, elapsedMs: performance.now() - start };
}

/** What the goals ask of a burst: answers by kind, the slowest, and whether each is one of the allowed kinds. */
export function burstSummary(result: BurstResult) {
  const count = (predicate: (answer: BurstAnswer) => boolean) => result.answers.filter(predicate).length;
  const fastRefusal = (answer: BurstAnswer) =>
    (answer.status === 503 && answer.error === 'overloaded' && answer.retryAfter) ||
    (answer.status === 429 && answer.retryAfter);
  return {
    accepted: count((answer) => answer.status === 202),
    duplicates: count((answer) => answer.status === 200),
    shed: count((answer) => answer.status === 503 && answer.error === 'overloaded'),
    reasons: result.answers.reduce<Record<string, number>>((reasons, answer) => {
      if (answer.reason) reasons[answer.reason] = (reasons[answer.reason] ?? 0) + 1;
      return reasons;
    }, {}),
    other: count((answer) => answer.status !== 202 && answer.status !== 200 && !fastRefusal(answer)),
    // A reduce, not Math.max(...answers): an overload phase has more answers than a call takes arguments.
    slowestMs: result.answers.reduce((slowest, answer) => Math.max(slowest, answer.latencyMs), 0),
    p99Ms: summary(result.answers.map((answer) => answer.latencyMs)).p99,
    /** Answers slower than the 2 s goal: a few stragglers and a slow crowd read differently. */
    overTwoSeconds: count((answer) => answer.latencyMs > 2_000),
    acceptedPerSecond: (count((answer) => answer.status === 202) / result.elapsedMs) * 1000,
  };
}
