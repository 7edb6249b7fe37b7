import { CloudEvent } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { FailurePolicy, Handler } from '../handler';

/** A handler of the group as the steps run it: the handler itself and its failure policy, defaults filled in. */
export interface CompiledHandler {
  type: string;
  handler: Handler;
  policy: FailurePolicy;
}

/** A message that parsed as an event of a type its group handles, and where it was read. */
export interface ParsedMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
  event: CloudEvent;
  replayCount: number;
}

/** A parsed message with the handler it goes to. */
export interface HandledMessage extends ParsedMessage {
  handler: CompiledHandler;
}

/** What the parse step made of a message: an event for one of the group's handlers, a type it ignores, or poison. */
export type Reading =
  | (HandledMessage & { kind: 'event' })
  | { kind: 'ignored'; type: string }
  | { kind: 'poison'; error: Error; eventId?: string; type?: string };

/** What a batch lets a message do while it is tried: keep the consumer alive, and notice that it is stopping. */
export interface Liveness {
  heartbeat(): Promise<void>;
  /** The consumer is stopping, lost the partition or is rebalancing: finish the current message, start no new one. */
  shouldStop(): boolean;
}
