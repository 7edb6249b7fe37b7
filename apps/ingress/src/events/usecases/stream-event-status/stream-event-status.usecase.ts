import { Injectable } from '@nestjs/common';
import { SagaTransitionView } from '../../event-saga.view';
import { EventStatus, GetEventStatusUseCase } from '../get-event-status/get-event-status.usecase';

/**
 * One Server-Sent Event: `status` (the whole status, as `GET /events/:id`) or `saga` (one transition of the event's
 * saga, with the saga's id and type). The SSE id is a time in ms that grows with every change.
 */
export type StatusFrame =
  | { event: 'status'; id: string; status: EventStatus }
  | { event: 'saga'; id: string; transition: SagaTransitionView & { sagaId: string; type: string } };

/** The version of a status: when it last changed. A client that saw version v needs nothing until it grows. */
export function statusVersion(status: EventStatus): number {
  const times = [
    status.receivedAt,
    status.publishedAt,
    ...status.groups.map((group) => group.updatedAt),
    status.saga?.updatedAt ?? null,
    status.saga?.history.at(-1)?.at ?? null,
  ];
  return Math.max(...times.filter((time): time is string => time !== null).map((time) => Date.parse(time)));
}

/**
 * GET /events/:id/stream — the status as Server-Sent Events: each saga transition the client has not seen (one
 * `saga` frame each, in order, so that none is lost between two polls), then the current state (unless the client's
 * Last-Event-ID says it has seen it), then each change, polled from the same tables as GET /events/:id.
 */
@Injectable()
export class StreamEventStatusUseCase {
  constructor(private readonly getEventStatus: GetEventStatusUseCase) {}

  /** Validates the id and returns the first state (404 / 400 before any stream is opened). */
  first(id: string): Promise<EventStatus> {
    return this.getEventStatus.execute(id);
  }

  async *frames(
    id: string,
    lastEventId: string | undefined,
    pollMs: number,
    signal: AbortSignal,
  ): AsyncGenerator<StatusFrame> {
    let seen = Number(lastEventId) || 0;
    let sagaSeq = 0;
    while (!signal.aborted) {
      const status = await this.getEventStatus.execute(id).catch(() => undefined);
      if (status?.saga) {
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
      await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    }
  }
}
