import { declaredTopicOf, TOPICS } from '@app/contracts';

/**
 * Topics of CloudEvents posted by internal producers (`POST /events`): a type's declared route (EVENT_TOPIC_ROUTES),
 * else hookrail.inbound, with the deployment's KAFKA_NAMESPACE in front, as the consumers and `topics:create` name them.
 */
export class CloudEventTopics {
  constructor(private readonly namespace: string) {}

  topicOf(type: string): string {
    return `${this.namespace}${declaredTopicOf(type) ?? TOPICS.inbound}`;
  }
}
