import { Injectable } from '@nestjs/common';
import { ConsumerServiceDeps, outboxLanesOf } from './consumer-service.deps';

/**
 * For a service whose handlers write outbox rows (the saga's participants reply through it): wakes the relays after
 * each of the group's commits that wrote outbox rows, naming their lanes, so that a reply is published at once rather
 * than at the relays' next poll.
 */
@Injectable()
export class WakeRelaysAfterCommit {
  constructor(deps: ConsumerServiceDeps) {
    deps.afterCommit((written) => deps.outboxNotifier.committed(outboxLanesOf(written)));
  }
}
