import { listBreakers } from '@app/consumer-runtime';
import { Database } from '@app/db';
import { Injectable } from '@nestjs/common';
import { malformed } from '@app/http';

export interface BreakerView {
  group: string;
  dependency: string;
  state: 'open' | 'closed';
  /** Open: since when the dependency has been unavailable. Closed: since when it answers again. */
  since: string;
  lastError: string | null;
  updatedAt: string;
  /** One line for people: "notifier: email-provider unavailable since …". */
  summary: string;
}

/** GET /admin/breakers: every consumer group's circuit breakers, open ones first; `?state=open` for those only. */
@Injectable()
export class ListBreakersUseCase {
  constructor(private readonly database: Database) {}

  async execute(state: unknown): Promise<BreakerView[]> {
    if (state !== undefined && state !== 'open' && state !== 'all') throw malformed('state must be "open" or "all"');
    const rows = await listBreakers(await this.database.connection(), { openOnly: state === 'open' });
    return rows.map((row) => ({
      group: row.group,
      dependency: row.dependency,
      state: row.state,
      since: row.since.toISOString(),
      lastError: row.lastError,
      updatedAt: row.updatedAt.toISOString(),
      summary:
        row.state === 'open'
          ? `${row.group}: ${row.dependency} unavailable since ${row.since.toISOString()}`
          : `${row.group}: ${row.dependency} answering since ${row.since.toISOString()}`,
    }));
  }
}
