import { declaredTopicOf, TOPICS } from '@app/contracts';

/** Topic of a CloudEvent posted by an internal producer: its declared route (EVENT_TOPIC_ROUTES), else hookrail.inbound. */
export function topicForType(type: string): string {
  return declaredTopicOf(type) ?? TOPICS.inbound;
}
