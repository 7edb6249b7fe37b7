import { ConsumerContext, PermanentError } from '@app/consumer-runtime';
import { CloudEvent } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { addToDailyTotals } from './daily-totals.repository';

/** One event → one more in its type's total for the day it happened (UTC), queued on the consumer's transaction. */
@Injectable()
export class CountEventUseCase {
  execute(ctx: ConsumerContext, event: CloudEvent): void {
    const at = new Date(event.time);
    if (Number.isNaN(at.getTime())) throw new PermanentError(`ce_time "${event.time}" is not a time`);
    ctx.write(addToDailyTotals, { day: at.toISOString().slice(0, 10), eventType: event.type });
  }
}
