import { Database, DatabaseUnavailableError, isDatabaseUnavailable } from '@app/db';
import { NewOutboxRow } from '@app/outbox';
import { Inject, Injectable } from '@nestjs/common';
import { EventWithOutbox, InboundEventRepository, NewInboundEvent } from './inbound-event.repository';

export const GROUP_COMMIT_SETTINGS = Symbol('GROUP_COMMIT_SETTINGS');

export interface GroupCommitSettings {
  /** Most deliveries one statement (one transaction, one commit) writes; 1 gives each its own. */
  maxRows: number;
  /**
   * How long the first delivery of a group waits for others, in milliseconds; 0: only for those that arrive in the
   * same turn of the event loop.
   */
  maxWaitMs: number;
  /** Statements in flight at once; deliveries that arrive meanwhile wait for one to finish and go together. */
  maxInFlight: number;
}

interface Pending extends EventWithOutbox {
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * The group commit of the request plane: concurrent deliveries share one statement, so one transaction and one
 * commit (`InboundEventRepository.insertManyWithOutbox`), and each is answered from its own row. Nothing is answered
 * before its statement committed. Whether a delivery is new stays the unique constraint's decision, also between two
 * deliveries of one group; the caller tells a duplicate from a `409` as before. When a group's statement fails for a
 * reason other than the database being unavailable (a value a column refuses), each delivery of the group is
 * written again on its own, so that only the one at fault gets the error.
 */
@Injectable()
export class GroupCommitWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    @Inject(GROUP_COMMIT_SETTINGS) private readonly settings: GroupCommitSettings,
    private readonly database: Database,
    private readonly inboundEvents: InboundEventRepository,
  ) {}

  /** Resolves once committed: true when inserted, false when (source, sender event id) was already taken. */
  write(event: NewInboundEvent, outbox: NewOutboxRow): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, outbox, resolve, reject });
      if (this.queue.length >= this.settings.maxRows) this.flush();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const fire = () => {
      this.scheduled = false;
      this.flush();
    };
    if (this.settings.maxWaitMs > 0) setTimeout(fire, this.settings.maxWaitMs);
    else setImmediate(fire);
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.settings.maxInFlight) {
      const group =
        this.queue.length <= this.settings.maxRows ? this.queue : this.queue.slice(0, this.settings.maxRows);
      this.queue = group === this.queue ? [] : this.queue.slice(group.length);
      this.inFlight += 1;
      void this.commit(group).finally(() => {
        this.inFlight -= 1;
        if (this.queue.length > 0) this.flush(); // they have waited already
      });
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    try {
      const dataSource = await this.database.connection();
      if (group.length === 1) {
        group[0].resolve(await this.inboundEvents.insertWithOutbox(dataSource, group[0].event, group[0].outbox));
        return;
      }
      const inserted = await this.inboundEvents.insertManyWithOutbox(dataSource, group);
      for (const pending of group) pending.resolve(inserted.has(pending.event.id));
    } catch (error) {
      if (group.length === 1 || error instanceof DatabaseUnavailableError || isDatabaseUnavailable(error)) {
        for (const pending of group) pending.reject(error);
        return;
      }
      for (const pending of group) await this.commit([pending]);
    }
  }
}
