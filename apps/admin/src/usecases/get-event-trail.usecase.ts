import { Database } from '@app/db';
import { findTrails, TrailAnswer } from '@app/trail';
import { Injectable } from '@nestjs/common';
import { malformed, notFound } from '@app/http';
import { AdminKafka } from '../admin-kafka';

/** GET /admin/events/:ref: the trail of the event(s) an event id, a sender's event id or an aggregate id names. */
@Injectable()
export class GetEventTrailUseCase {
  constructor(
    private readonly database: Database,
    private readonly kafka: AdminKafka,
  ) {}

  async execute(ref: string): Promise<TrailAnswer> {
    const trimmed = ref.trim();
    if (trimmed.length === 0 || trimmed.length > 300)
      throw malformed('an event id, a sender event id or an aggregate id (1 to 300 characters) is required');
    const answer = await findTrails(trimmed, {
      db: await this.database.connection(),
      kafkaAdmin: () => this.kafka.admin(),
    });
    if (answer.events.length === 0)
      throw notFound(`no event with id, sender event id or aggregate id "${trimmed.slice(0, 100)}"`);
    return answer;
  }
}
