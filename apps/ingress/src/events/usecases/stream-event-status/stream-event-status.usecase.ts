import { Injectable } from '@nestjs/common';
import { EventStatus, GetEventStatusUseCase } from '../get-event-status/get-event-status.usecase';

export interface StatusFrame {
  /** SSE id: the status's version, the latest of its timestamps in ms; grows with every change. */
  id: string;
  status: EventStatus;
}

/** The version of a status: when it last changed. A client that saw version v needs nothing until it grows. */
export function statusVersion(status: EventStatus): number {
  const times = [status.receivedAt, status.publishedAt, ...status.groups.map((group) => group.updatedAt)];
  return Math.max(...times.filter((time): time is string => time !== null).map((time) => Date.parse(time)));
}

/**
 * GET /events/:id/stream — the status as Server-Sent Events: the current state at once (unless the client's
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
    while (!signal.aborted) {
      const status = await this.getEventStatus.execute(id).catch(() => undefined);
      if (status) {
        const version = statusVersion(status);
        if (version > seen) {
          seen = version;
          yield { id: String(version), status };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    }
  }
}
