import { CLOUDEVENTS_SPEC_VERSION, CloudEvent } from '@app/contracts';
import { Database } from '@app/db';
import { InboundEventRepository } from '@app/inbound-events';
import { OutboxNotifier, toOutboxRow } from '@app/outbox';
import { ATTR } from '@app/tracing';
import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { idConflict } from '@app/http';
import { GroupCommitWriter } from '../../group-commit.writer';
import { createSpan } from '../../trace-context';

export interface RecordEventCommand {
  /** Dedupe namespace: the webhook source name, or the CloudEvent's source. */
  source: string;
  senderEventId: string;
  /** A CloudEvent's own id, which the published event keeps as its `id` (hookrail's goes in `hookrailid`). */
  producerId?: string;
  type: string;
  /** The Kafka key: the webhook's aggregate id, or a CloudEvent's partitionkey, subject or id. */
  aggregateId: string;
  /**
   * The event's `subject`: a CloudEvent's own (null when it has none), kept as the producer sent it; unset for a
   * webhook, whose subject is its aggregate id.
   */
  subject?: string | null;
  topic: string;
  /** What the CloudEvent's `source` attribute says. */
  ceSource: string;
  /** The body as received (stored for operators) and the bytes it was hashed from. */
  payload: unknown;
  /** `payload` as JSON text when the caller has it already (a webhook's body as received): stored as it came. */
  payloadJson?: string;
  rawBody: Buffer;
  data: unknown;
  time?: string;
  extensions?: Record<string, string>;
  /** How the delivery was authenticated (the source's signature scheme, or `cloudevents`), for the event's trail. */
  scheme: string;
  /** The request headers without credentials and signatures (receivedHeaders), for the event's trail. */
  headers: Record<string, string>;
}

export interface RecordEventResult {
  id: string;
  duplicate: boolean;
}

/**
 * The durable write of the request plane: inbound_events row and outbox row in one statement, which concurrent
 * deliveries share (`GroupCommitWriter`: one transaction, one commit), then a (coalesced) NOTIFY that wakes the relays.
 * A duplicate delivery (same source and sender id, same bytes) returns the first id and writes nothing; the same id
 * with other bytes is a 409. The unique constraint decides; nothing here checks before inserting.
 */
@Injectable()
export class RecordEventUseCase {
  constructor(
    private readonly database: Database,
    private readonly writer: GroupCommitWriter,
    private readonly inboundEvents: InboundEventRepository,
    private readonly outboxNotifier: OutboxNotifier,
  ) {}

  execute(command: RecordEventCommand): Promise<RecordEventResult> {
    return createSpan(command.topic, command.aggregateId, async (traceparent, span) => {
      const result = await this.record(command, traceparent);
      span?.setAttribute(ATTR.messageId, result.id);
      return result;
    });
  }

  /** With the `traceparent` of the ingress's span, when it traces, over the sender's. */
  private async record(command: RecordEventCommand, traceparent: string | undefined): Promise<RecordEventResult> {
    const id = randomUUID();
    const payloadHash = createHash('sha256').update(command.rawBody).digest('hex');
    const event: CloudEvent = {
      ...command.extensions,
      ...(traceparent ? { traceparent } : {}),
      specversion: CLOUDEVENTS_SPEC_VERSION,
      id,
      ...(command.producerId === undefined ? {} : { producerId: command.producerId }),
      source: command.ceSource,
      type: command.type,
      time: command.time ?? new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: command.subject === undefined ? command.aggregateId : (command.subject ?? undefined),
      data: command.data,
    };
    const outboxRow = toOutboxRow(command.topic, event);
    const inserted = await this.writer.write(
      {
        id,
        source: command.source,
        senderEventId: command.senderEventId,
        type: command.type,
        aggregateId: command.aggregateId,
        payloadHash,
        payloadJson: command.payloadJson ?? JSON.stringify(command.payload),
        scheme: command.scheme,
        headers: command.headers,
      },
      outboxRow,
    );
    if (inserted) {
      this.outboxNotifier.committed([outboxRow.lane]);
      return { id, duplicate: false };
    }
    // The unique constraint said: delivered before. Its payload hash tells a redelivery from a reused id.
    const dataSource = await this.database.connection();
    const first = await this.inboundEvents.findBySenderEventId(dataSource, command.source, command.senderEventId);
    if (!first)
      throw new Error(`inbound event ${command.source}/${command.senderEventId} conflicted but cannot be read`);
    if (first.payloadHash !== payloadHash) throw idConflict(command.senderEventId);
    return { id: first.id, duplicate: true };
  }
}
