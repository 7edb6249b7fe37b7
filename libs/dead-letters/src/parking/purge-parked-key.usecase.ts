import { DataSource } from 'typeorm';
import { DeadLetterAudit } from '../dead-letter-audit';
import { ConfirmationRequiredError } from './confirmation-required.error';
import { ParkedEventsRepository } from './parked-events.repository';
import { ParkedKeysRepository } from './parked-keys.repository';

export interface PurgeParkedKeyRequest {
  group: string;
  key: string;
  actor: string;
  dryRun?: boolean;
  /** The caller confirmed that the key's parked events are dropped; without it nothing changes (when there are any). */
  confirmed?: boolean;
}

export interface PurgeParkedKeyResult {
  dryRun: boolean;
  group: string;
  key: string;
  /** The key was parked (its head and the events behind it). */
  wasParked: boolean;
  /** Parked events behind the head, before the purge. */
  parkedEvents: number;
  /** Dead letters and parked events of the key that were purged (none on a dry run). */
  purged: string[];
}

/**
 * Gives up on a whole key of a group in one transaction: its dead letters and every event parked behind them become
 * `purged`, the key is released (its next events are applied as they come), and one audit row names them all.
 */
export async function purgeParkedKey(
  dataSource: DataSource,
  request: PurgeParkedKeyRequest,
): Promise<PurgeParkedKeyResult> {
  const { group, key } = request;
  const [summary] = await new ParkedKeysRepository(dataSource).list({ group, key }, 1);
  const base = { group, key, wasParked: summary !== undefined, parkedEvents: summary?.parkedEvents ?? 0 };
  if (request.dryRun) return { dryRun: true, ...base, purged: [] };
  if (summary && summary.parkedEvents > 0 && !request.confirmed)
    throw new ConfirmationRequiredError([
      { deadLetterId: summary.headDeadLetterId, group, key, parkedEvents: summary.parkedEvents },
    ]);
  return dataSource.transaction(async (manager) => {
    const keys = new ParkedKeysRepository(manager);
    await keys.lockHead(group, key);
    const purged = await new ParkedEventsRepository(manager).purgeKey(group, key);
    const released = await keys.release(group, key);
    if (purged.length > 0 || released) {
      await new DeadLetterAudit(manager).record({
        actor: request.actor,
        action: 'purge',
        filter: { group, key, wholeKey: true },
        count: purged.length,
        deadLetterIds: purged,
      });
    }
    return { dryRun: false, ...base, wasParked: base.wasParked || released, purged };
  });
}
