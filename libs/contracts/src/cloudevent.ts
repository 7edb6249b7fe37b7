/** A CloudEvents 1.0 envelope (https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/spec.md). */
export const CLOUDEVENTS_SPEC_VERSION = '1.0';

export interface CloudEvent<T = unknown> {
  specversion: typeof CLOUDEVENTS_SPEC_VERSION;
  /**
   * hookrail's own event id (a UUID), unique across all sources: what everything inside hookrail keys on (dedupe rows,
   * status URL, outbox, saga history, webhook deliveries, dead letters). On the wire it is the `hookrailid` attribute.
   */
  id: string;
  /**
   * The id the producer gave the event (`POST /events`): its CloudEvents `id` on the wire (`ce_id`), unique with its
   * `source`. Absent on events hookrail makes itself, whose CloudEvents `id` is `id`.
   */
  producerId?: string;
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
  /** Extension attributes (lower-case alphanumerics), e.g. `traceparent`, `customerid`. */
  [extension: string]: unknown;
}

/**
 * The extension attribute carrying hookrail's own event id (`CloudEvent.id`) on every event hookrail publishes, beside
 * the CloudEvents `id`, which is the producer's for an event taken in by `POST /events` and hookrail's otherwise.
 */
export const HOOKRAIL_ID_ATTRIBUTE = 'hookrailid';

/**
 * The extension attribute naming the customer an event belongs to (its `uid` among outbound webhooks' customers):
 * its endpoints receive the event, beside the operator's. Without it, the operator's endpoints only.
 */
export const CUSTOMER_ID_ATTRIBUTE = 'customerid';

/** A customer id as the `customerid` attribute carries it: 1–200 characters of letters, digits and `._:@/-`. */
export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,200}$/;
