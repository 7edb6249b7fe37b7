import { Identity, visibleGroups } from '@app/access';
import { Database } from '@app/db';
import {
  ConfirmationRequiredError,
  ParkedKeysRepository,
  ParkedKeySummary,
  ParkingStats,
  purgeParkedKey,
  PurgeParkedKeyResult,
} from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { confirmationRequired, malformed } from '@app/http';
import { requireGroup } from '../access/access.guard';
import { optionalBoolean, optionalPositiveInt } from './dead-letter-selection';

/** A purge that would set parked events going (or drop them) and was not confirmed: `409` saying what waits. */
export function toConfirmationProblem(error: unknown): unknown {
  if (!(error instanceof ConfirmationRequiredError)) return error;
  return confirmationRequired(`${error.message}; send "confirm": true to go ahead`, { parked: error.parked });
}

function optionalText(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw malformed(`${name} must be a string`);
  return value;
}

/**
 * GET /admin/parked-keys (`group`, `key`, `limit`): the keys consumer groups hold back, longest parked first, each
 * with its head dead letter and the number of events waiting behind it, and per group (of the filter) the keys, events
 * and the oldest key's age in all, whatever the limit. POST /admin/parked-keys/purge
 * (`{group, key, dryRun?, confirm?}`): the key's dead letters and parked events purged and the key released, audited.
 */
@Injectable()
export class ParkedKeysUseCase {
  constructor(private readonly database: Database) {}

  /** A token limited to groups: a group it names must be one of them (else 403); with none named, its groups' keys. */
  async list(
    query: Record<string, unknown>,
    identity: Identity,
  ): Promise<{ items: ParkedKeySummary[]; byGroup: ParkingStats[] }> {
    const filter = { group: optionalText(query, 'group'), key: optionalText(query, 'key') };
    if (filter.group !== undefined) requireGroup(identity, 'read', filter.group);
    const scope = filter.group === undefined ? visibleGroups(identity) : null;
    const visible = (group: string) => (!filter.group || group === filter.group) && (!scope || scope.includes(group));
    const limit = optionalPositiveInt(query, 'limit', 1000) ?? 100;
    const parkedKeys = new ParkedKeysRepository(await this.database.connection());
    const [items, stats] = await Promise.all([parkedKeys.list(filter, limit), parkedKeys.stats([])]);
    return { items: items.filter((item) => visible(item.group)), byGroup: stats.filter((row) => visible(row.group)) };
  }

  async purge(actor: string, body: Record<string, unknown>): Promise<PurgeParkedKeyResult> {
    const group = optionalText(body, 'group');
    const key = optionalText(body, 'key');
    if (!group || !key) throw malformed('purging a parked key needs "group" and "key"');
    const request = {
      group,
      key,
      actor,
      dryRun: optionalBoolean(body, 'dryRun'),
      confirmed: optionalBoolean(body, 'confirm'),
    };
    return purgeParkedKey(await this.database.connection(), request).catch((error: unknown) => {
      throw toConfirmationProblem(error);
    });
  }
}
