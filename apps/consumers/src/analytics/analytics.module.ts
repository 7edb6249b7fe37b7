import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import type { ConsumerService } from '../consumer-service';
import { AnalyticsController } from './analytics.controller';
import { CountEventUseCase } from './count-event.usecase';
import { DailyTotalEntity } from './daily-total.entity';

/** The analytics group: daily totals per event type. The example a new team copies (docs/consumers.md, "Add your own consumer group"). */
@Module({ controllers: [AnalyticsController], providers: [CountEventUseCase] })
export class AnalyticsModule {}

export const ANALYTICS_SERVICE: ConsumerService = {
  group: 'analytics',
  topics: [TOPICS.shopOrders],
  module: AnalyticsModule,
  entities: [DailyTotalEntity],
  owner: { team: 'data', contact: 'data@example.com' },
};
