import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { SsrfGuard } from '@app/ssrf-guard';
import { ssrfPolicyOf } from '@app/webhooks';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Logger } from 'pino';
import { ADMIN_ENTITIES } from '../admin.entities';
import { EventCatalog } from '../catalog/event-catalog';
import { AdminEnv } from '../config/admin.env';
import { AdminProblemFilter } from '../http/admin-problem.filter';
import { CustomerGuard } from './customer.guard';
import { PortalDeliveriesController } from './portal-deliveries.controller';
import { PortalEndpointsController } from './portal-endpoints.controller';
import { PortalRateLimit } from './portal-rate-limit';
import { PortalSessionController } from './portal-session.controller';
import { PortalUseCase } from './portal.usecase';
import { PortalPageController } from './page/portal-page.controller';

/**
 * The customer API (`/customer/v1`), on the admin process's second listener: the same libraries as the operator
 * plane, none of its controllers or its operator tokens. A customer token sees its own customer's endpoints only.
 */
@Module({})
export class PortalAppModule {
  static forRoot(config: AdminEnv, logger: Logger, catalog: EventCatalog): DynamicModule {
    return {
      module: PortalAppModule,
      imports: [
        LoggerModule.forRoot(logger),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: 'hookrail-portal',
          poolSize: config.DATABASE_POOL_SIZE,
          minPoolSize: 1,
          entities: ADMIN_ENTITIES,
        }),
      ],
      controllers: [
        PortalSessionController,
        PortalEndpointsController,
        PortalDeliveriesController,
        PortalPageController,
      ],
      providers: [
        { provide: EventCatalog, useValue: catalog },
        { provide: SsrfGuard, useValue: new SsrfGuard(ssrfPolicyOf(config)) },
        { provide: PortalRateLimit, useValue: new PortalRateLimit(config.PORTAL_RATE_PER_MINUTE) },
        { provide: APP_FILTER, useClass: AdminProblemFilter },
        CustomerGuard,
        PortalUseCase,
      ],
    };
  }
}
