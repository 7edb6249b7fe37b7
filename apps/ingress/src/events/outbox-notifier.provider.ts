import { Database } from '@app/db';
import { errorMessage, LOGGER } from '@app/logger';
import { notifyOutbox, OutboxNotifier } from '@app/outbox';
import { FactoryProvider } from '@nestjs/common';
import { Logger } from 'pino';

/** The ingress's one OutboxNotifier: every accepted event wakes the relays after its commit, coalesced. */
export const outboxNotifierProvider: FactoryProvider<OutboxNotifier> = {
  provide: OutboxNotifier,
  inject: [Database, LOGGER],
  useFactory: (database: Database, logger: Logger) =>
    new OutboxNotifier(
      async (lanes) => notifyOutbox(await database.connection(), lanes),
      (error) =>
        logger.warn(
          { err: errorMessage(error) },
          'outbox notification failed; the relays pick the rows up at their next poll',
        ),
    ),
};
