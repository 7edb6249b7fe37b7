import { CloudEventV1, Kafka as CloudEventsKafka, KafkaMessage } from 'cloudevents';
import { ReadMessage } from './topic-reader';

/** A message read from a topic, decoded by the official CloudEvents SDK (its Kafka binding), as a consumer would. */
export function decodeWithCloudEventsSdk(message: ReadMessage): CloudEventV1<unknown> {
  const kafkaMessage: KafkaMessage = {
    key: message.key ?? '',
    value: message.value,
    body: message.value,
    headers: message.headers,
  };
  const event = CloudEventsKafka.toEvent(kafkaMessage);
  return Array.isArray(event) ? event[0] : event;
}
