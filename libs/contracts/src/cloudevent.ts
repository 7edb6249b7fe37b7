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

/**
 * The extension attribute naming the customer an event belongs to (its `uid` among outbound webhooks' customers):
 * its endpoints receive the event, beside the operator's. Without it, the operator's endpoints only.
 */
export const CUSTOMER_ID_ATTRIBUTE = 'customerid';

/** A customer id as the `customerid` attribute carries it: 1–200 characters of letters, digits and `._:@/-`. */
export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,200}$/;
