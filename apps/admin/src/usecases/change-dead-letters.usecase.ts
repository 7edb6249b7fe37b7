import { Identity } from '@app/access';
import { Database } from '@app/db';
import { purgeDeadLetters, PurgeResult, replayDeadLetters, ReplayResult } from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { malformed } from '@app/http';
import { AdminKafka } from '../admin-kafka';
import { optionalBoolean, optionalPositiveInt, toFilter, withinScope } from './dead-letter-selection';
import { toConfirmationProblem } from './parked-keys.usecase';

export interface ChangeCommand {
  action: 'replay' | 'purge';
  actor: string;
  /** The token: a token limited to groups changes its groups' dead letters only. */
  identity: Identity;
  /** The JSON body: ids or filter fields, `all`, `dryRun`, `limit`, `rate` (replay only), `confirm` (purge only). */
  body: Record<string, unknown>;
}

/**
 * POST /admin/dead-letters/replay and /purge (and their by-id forms). Replay goes to `<group>.replay` only; both
 * are audited with the operator. A request with neither ids nor a filter must say `"all": true`. A purge of the head
 * of a parked key releases the events parked behind it: without `"confirm": true` it answers `409` saying how many.
 */
@Injectable()
export class ChangeDeadLettersUseCase {
  constructor(
    private readonly database: Database,
    private readonly kafka: AdminKafka,
  ) {}

  async execute({ action, actor, identity, body }: ChangeCommand): Promise<ReplayResult | PurgeResult> {
    const filter = toFilter(body);
    if (filter.status) throw malformed(`${action} works on dead letters in status dead; status does not apply`);
    if (Object.keys(filter).length === 0 && !optionalBoolean(body, 'all'))
      throw malformed(`${action} needs ids or a filter, or "all": true`);
    const request = {
      filter: withinScope(filter, identity, action === 'purge' ? 'administer' : 'operate'),
      actor,
      dryRun: optionalBoolean(body, 'dryRun'),
      limit: optionalPositiveInt(body, 'limit', 10_000),
    };
    const dataSource = await this.database.connection();
    if (action === 'purge')
      return purgeDeadLetters(dataSource, { ...request, confirmParked: optionalBoolean(body, 'confirm') }).catch(
        (error: unknown) => {
          throw toConfirmationProblem(error);
        },
      );
    return replayDeadLetters(dataSource, () => this.kafka.producer(), {
      ...request,
      ratePerSecond: optionalPositiveInt(body, 'rate', 10_000),
    });
  }
}
