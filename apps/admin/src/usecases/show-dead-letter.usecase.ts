import { Database } from '@app/db';
import { DeadLetterDetail, DeadLettersRepository } from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { notFound } from '@app/http';
import { toFilter } from './dead-letter-selection';

/** GET /admin/dead-letters/:id: the error, stack, headers and payload. */
@Injectable()
export class ShowDeadLetterUseCase {
  constructor(private readonly database: Database) {}

  async execute(id: string): Promise<DeadLetterDetail> {
    const { ids: [checked] = [] } = toFilter({ ids: [id] });
    const row = await new DeadLettersRepository(await this.database.connection()).find(checked);
    if (!row) throw notFound(`no dead letter with id ${checked}`);
    return row;
  }
}
