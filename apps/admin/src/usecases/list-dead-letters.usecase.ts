import { Identity } from '@app/access';
import { Database } from '@app/db';
import { DeadLettersRepository, DeadLetterSummary, ErrorClassCount } from '@app/dead-letters';
import { Injectable } from '@nestjs/common';
import { optionalPositiveInt, toFilter, withinScope } from './dead-letter-selection';

/** GET /admin/dead-letters: the matching dead letters (newest first), their total, and the dead ones by error class. */
@Injectable()
export class ListDeadLettersUseCase {
  constructor(private readonly database: Database) {}

  async execute(
    query: Record<string, unknown>,
    identity: Identity,
  ): Promise<{ total: number; items: DeadLetterSummary[]; byErrorClass: ErrorClassCount[] }> {
    const filter = withinScope(toFilter(query), identity, 'read');
    const limit = optionalPositiveInt(query, 'limit', 1000) ?? 100;
    const offset = optionalPositiveInt(query, 'offset', 1_000_000) ?? 0;
    const deadLetters = new DeadLettersRepository(await this.database.connection());
    const [total, items, byErrorClass] = await Promise.all([
      deadLetters.count(filter),
      deadLetters.list(filter, limit, offset),
      deadLetters.countDeadByErrorClass(),
    ]);
    return { total, items, byErrorClass };
  }
}
