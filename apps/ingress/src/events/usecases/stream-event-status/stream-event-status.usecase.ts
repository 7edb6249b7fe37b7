import { Injectable } from '@nestjs/common';
import { SagaTransitionView } from '../../event-saga.view';
import { EventStatusView, isFullStatus } from '../../event-status.view';
import { StatusReader } from '../../status-access/status-access';
import { StatusReaders } from '../../status-access/status-readers';
import { TokenRecheck } from '../../status-access/token-recheck';
import { GetEventStatusUseCase } from '../get-event-status/get-event-status.usecase';

/**
 * One Server-Sent Event: `status` (the whole status, as `GET /events/:id` shows it to this reader), `saga` (one
 * transition of the event's saga, with the saga's id and type; full view only), or `access-ended` (the token was
 * revoked or expired: the last frame, without an id). The SSE id is a time in ms that grows with every change.
 */
export type StatusFrame =
  | { event: 'status'; id: string; status: EventStatusView }
  | { event: 'saga'; id: string; transition: SagaTransitionView & { sagaId: string; type: string } }
  | { event: 'access-ended'; ended: { error: 'unauthorized'; message: string } };

export interface StreamEventStatusCommand {
  id: string;
  /** As `open` answered it. */
  reader: StatusReader;
  lastEventId: string | undefined;
  pollMs: number;
  signal: AbortSignal;
}

/** What `statusVersion` reads of either view. */
interface Versioned {
  receivedAt: string;
  publishedAt: string | null;
  groups: Array<{ updatedAt: string }>;
  saga?: { updatedAt: string; history?: Array<{ at: string }> };
}

/** The version of a status: when it last changed. A client that saw version v needs nothing until it grows. */
export function statusVersion(status: Versioned): number {
  const times = [
    status.receivedAt,
    status.publishedAt,
    ...status.groups.map((group) => group.updatedAt),
    status.saga?.updatedAt ?? null,
    status.saga?.history?.at(-1)?.at ?? null,
  ];
  return Math.max(...times.filter((time): time is string => time !== null).map((time) => Date.parse(time)));
}

/**
 * GET /events/:id/stream — the status as Server-Sent Events: each saga transition the client has not seen (one
 * `saga` frame each, in order, so that none is lost between two polls), then the current state (unless the client's
 * Last-Event-ID says it has seen it), then each change, polled from the same tables as GET /events/:id. A stored
 * token is checked again at least every `recheckMs`; once refused, an `access-ended` frame says why and the stream
 * ends.
 */
@Injectable()
export class StreamEventStatusUseCase {
  constructor(
    private readonly getEventStatus: GetEventStatusUseCase,
    private readonly readers: StatusReaders,
  ) {}

  /** Authenticates, validates the id and checks the event is the reader's (401 / 400 / 404 before any stream). */
  async open(id: string, authorization: string | undefined): Promise<StatusReader> {
    const reader = await this.readers.identify(authorization);
    await this.getEventStatus.view(id, reader);
    return reader;
  }

  async *frames(command: StreamEventStatusCommand): AsyncGenerator<StatusFrame> {
    const { id, reader, pollMs, signal } = command;
    const recheck = new TokenRecheck(reader, this.readers.settings.recheckMs, (bearer) => this.readers.recheck(bearer));
    let seen = Number(command.lastEventId) || 0;
    let sagaSeq = 0;
    while (!signal.aborted) {
      const access = await recheck.state();
      if (typeof access === 'object') {
        yield { event: 'access-ended', ended: { error: 'unauthorized', message: access.refused } };
        return;
      }
      const status =
        access === 'allowed' ? await this.getEventStatus.view(id, reader).catch(() => undefined) : undefined;
      if (status && isFullStatus(status) && status.saga) {
        const { id: sagaId, type, history } = status.saga;
        for (const transition of history) {
          if (transition.seq <= sagaSeq) continue;
          sagaSeq = transition.seq;
          const at = Date.parse(transition.at);
          if (at > seen) yield { event: 'saga', id: String(at), transition: { ...transition, sagaId, type } };
        }
      }
      if (status) {
        const version = statusVersion(status);
        if (version > seen) {
          seen = version;
          yield { event: 'status', id: String(version), status };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, recheck.waitMs(pollMs)).unref());
    }
  }
}
