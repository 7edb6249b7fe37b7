import { Identity, Need } from '@app/access';
import { Database } from '@app/db';
import { DeadLetterDetail, DeadLettersRepository } from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { notFound } from '@app/http';
import { requireGroup } from '../access/access.guard';
import { toFilter } from './dead-letter-selection';

/**
 * GET /admin/dead-letters/:id: the error, stack, headers and payload, to a token that may read its group (else 403
 * naming the group); also what a by-id replay or purge checks first.
 */
@Injectable()
export class ShowDeadLetterUseCase {
  constructor(private readonly database: Database) {}

  async execute(id: string, identity: Identity, need: Need = 'read'): Promise<DeadLetterDetail> {
    const { ids: [checked] = [] } = toFilter({ ids: [id] });
    const row = await new DeadLettersRepository(await this.database.connection()).find(checked);
    if (!row) throw notFound(`no dead letter with id ${checked}`);
    requireGroup(identity, need, row.group);
    return row;
  }
}
