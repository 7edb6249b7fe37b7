/** A CloudEvents 1.0 envelope (https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/spec.md). */
export const CLOUDEVENTS_SPEC_VERSION = '1.0';

export interface CloudEvent<T = unknown> {
  specversion: typeof CLOUDEVENTS_SPEC_VERSION;
  /** hookrail's own event id (a UUID), unique across all sources. */
  id: string;
  /** Where the event came from, e.g. `/webhooks/shop` or an internal producer's URI. */
  source: string;
  /** Versioned type, e.g. `shop.order.placed.v1`. */
  type: string;
  time: string;
  datacontenttype: 'application/json';
  /** The aggregate the event belongs to; also the Kafka message key. */
  subject?: string;
  /** URI of the schema `data` adheres to; hookrail sets it to the catalogue entry of every registered type. */
  dataschema?: string;
  data: T;
  /** Extension attributes (lower-case alphanumerics), e.g. `traceparent`, `senderid`. */
  [extension: string]: unknown;
}
