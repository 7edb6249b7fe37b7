import { HOOKRAIL_HEADERS } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';

/** The Kafka key of a message (its aggregate id), as parking keys it. */
export const keyOf = (message: KafkaMessage): string | null => message.key?.toString() ?? null;

/** The `dead_letters` row a replayed message came from, or undefined for a live message. */
export function replayOf(message: KafkaMessage): string | undefined {
  const raw = message.headers?.[HOOKRAIL_HEADERS.deadLetterId];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.toString();
  return value || undefined;
}
