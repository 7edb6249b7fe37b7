import { NewOutboxRow, toOutboxRow, writeOutboxRows } from '@app/outbox';
import { EntityManager } from 'typeorm';
import { SagaTransaction } from './saga-coordinator';
import { OutgoingMessage } from './saga-messages';
import { SagasRepository, SagaStepRow } from './sagas.repository';

/**
 * A SagaTransaction on a transaction of the caller's own (the deadline job, a test): what the moves queue is written
 * by `flush`, one statement for the outbox rows and one for the history, before the caller commits.
 */
export function sagaTransaction(manager: EntityManager): SagaTransaction & { flush(): Promise<void> } {
  const history: SagaStepRow[] = [];
  const sent: NewOutboxRow[] = [];
  return {
    manager,
    history: (row) => history.push(row),
    send: (message: OutgoingMessage) => sent.push(toOutboxRow(message.topic, message.event)),
    flush: async () => {
      await writeOutboxRows(manager, sent.splice(0));
      await SagasRepository.insertSteps(manager, history.splice(0));
    },
  };
}
