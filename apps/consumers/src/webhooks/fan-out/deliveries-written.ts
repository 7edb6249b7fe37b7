import { DataSource, EntityManager, EntitySubscriberInterface, TransactionCommitEvent } from 'typeorm';

const WRITTEN = 'hookrailWebhookDeliveriesWritten';

/** Inside a consumer transaction: it wrote deliveries, so the workers should hear of them once it commits. */
export function markDeliveriesWritten(manager: EntityManager): void {
  const data = manager.queryRunner?.data as Record<string, unknown> | undefined;
  if (data) data[WRITTEN] = true;
}

/**
 * Calls `committed` after every commit of a transaction that wrote deliveries (TypeORM's afterTransactionCommit on
 * the consumers' DataSource). The wake-up goes out after the commit, never inside the transaction: the workers would
 * find nothing yet, and a NOTIFY inside a transaction serialises commits (docs/internals/relay.md, Wake-up; why:
 * docs/decisions/request-plane.md, NOTIFY after the commit).
 */
export function onDeliveriesCommitted(dataSource: DataSource, committed: () => void): () => void {
  const subscriber: EntitySubscriberInterface = {
    afterTransactionCommit(event: TransactionCommitEvent) {
      const data = event.queryRunner.data as Record<string, unknown> | undefined;
      if (data?.[WRITTEN]) {
        data[WRITTEN] = false;
        committed();
      }
    },
  };
  dataSource.subscribers.push(subscriber);
  return () => {
    const index = dataSource.subscribers.indexOf(subscriber);
    if (index >= 0) dataSource.subscribers.splice(index, 1);
  };
}
