import { ClaimedParkedEvent, ParkedEventsRepository, ParkedKeysRepository } from '@app/dead-letters';
import { JobSchedule } from '@app/jobs';
import { errorMessage } from '../classify-error';
import { KeyParking } from './key-parking';

export interface UnparkerSettings {
  /** How often the group's parked keys are checked (default 1 s). */
  everyMs?: number;
  /** A head sent for replay and still not applied after this long is sent again (default 60 s). */
  resendAfterMs: number;
}

/**
 * The group's unparking where no applied replay drives it: a head purged by an operator, or resolved without this
 * group's runtime seeing its replay, lets the next parked event go; a parked event claimed for replay whose message
 * was lost (the process died between the commit and the send) is sent again with the same replay count, which the
 * dedupe row makes harmless if the first one arrives after all. Every process of the group runs one; each key is
 * taken with `FOR UPDATE SKIP LOCKED`, so one of them moves it.
 */
export class Unparker {
  private readonly schedule: JobSchedule;

  constructor(
    private readonly parking: KeyParking,
    private readonly settings: UnparkerSettings,
  ) {
    this.schedule = new JobSchedule(settings.everyMs ?? 1_000, () => this.sweep());
  }

  start(): void {
    this.schedule.start();
  }

  stop(): Promise<void> {
    return this.schedule.stop();
  }

  /** One pass over the group's keys that have work. */
  async sweep(): Promise<void> {
    const { dataSource, group, logger } = this.parking.deps;
    try {
      const keys = await new ParkedKeysRepository(dataSource).dueKeys(group, this.settings.resendAfterMs, 100);
      for (const key of keys) await this.parking.replay(await this.step(key));
    } catch (error) {
      logger.warn({ group, err: errorMessage(error) }, 'could not check the parked keys');
    }
  }

  private step(key: string): Promise<ClaimedParkedEvent[]> {
    const { dataSource, group, logger } = this.parking.deps;
    return dataSource.transaction(async (manager) => {
      const head = await new ParkedKeysRepository(manager).lockHead(group, key, true);
      if (!head) return [];
      if (head.applied || head.status === 'resolved' || head.status === 'purged')
        return this.parking.advance(manager, key, head.headId);
      const stale = Date.now() - (head.replayedAt?.getTime() ?? Date.now()) >= this.settings.resendAfterMs;
      if (head.status !== 'replaying' || !stale) return [];
      const again = await new ParkedEventsRepository(manager).touchReplay(head.headId);
      if (again)
        logger.warn(
          { group, key, eventId: again.eventId, deadLetterId: again.id },
          'replay not applied yet; sent again',
        );
      return again ? [again] : [];
    });
  }
}
