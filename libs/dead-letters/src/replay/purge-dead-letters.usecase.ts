import { DataSource } from 'typeorm';
import { DeadLetterAudit } from '../dead-letter-audit';
import { DeadLetterFilter, describeFilter } from '../dead-letter-filter';
import { DeadLettersRepository, DeadLetterSummary } from '../dead-letters.repository';
import { ConfirmationRequiredError } from '../parking/confirmation-required.error';
import { ParkedBehind, ParkedKeysRepository } from '../parking/parked-keys.repository';

export interface PurgeRequest {
  filter: DeadLetterFilter;
  actor: string;
  dryRun?: boolean;
  /** Most dead letters one request purges (default 1000). */
  limit?: number;
  /**
   * The caller confirmed that purging the head of a parked key sets the events parked behind it going (they are
   * replayed in order). Without it such a purge changes nothing and throws ConfirmationRequiredError.
   */
  confirmParked?: boolean;
}

export interface PurgeResult {
  dryRun: boolean;
  matched: number;
  purged: string[];
  candidates?: DeadLetterSummary[];
  /** Parked keys whose head is among the matched dead letters, with the events waiting behind each. */
  parkedBehind: ParkedBehind[];
}

/**
 * Gives up on dead letters for good: `dead → purged` (the retention job deletes them later). The status change and
 * its audit row commit in one transaction. Purging the head of a parked key releases the events parked behind it,
 * so it needs the caller's confirmation.
 */
export async function purgeDeadLetters(dataSource: DataSource, request: PurgeRequest): Promise<PurgeResult> {
  const ids = await new DeadLettersRepository(dataSource).selectIds(request.filter, 'dead', request.limit ?? 1000);
  const parkedBehind = await new ParkedKeysRepository(dataSource).parkedBehind(ids);
  if (request.dryRun) {
    const candidates = ids.length ? await new DeadLettersRepository(dataSource).list({ ids }, ids.length) : [];
    return { dryRun: true, matched: ids.length, purged: [], candidates, parkedBehind };
  }
  if (parkedBehind.length > 0 && !request.confirmParked) throw new ConfirmationRequiredError(parkedBehind);
  const purged = await dataSource.transaction(async (manager) => {
    const changed = await new DeadLettersRepository(manager).purge(ids);
    if (changed.length > 0) {
      await new DeadLetterAudit(manager).record({
        actor: request.actor,
        action: 'purge',
        filter: describeFilter(request.filter),
        count: changed.length,
        deadLetterIds: changed,
      });
    }
    return changed;
  });
  return { dryRun: false, matched: ids.length, purged, parkedBehind };
}
