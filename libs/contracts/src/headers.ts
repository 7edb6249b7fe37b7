/**
 * Kafka header names. CloudEvents attributes follow the Kafka protocol binding (binary mode):
 * https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/bindings/kafka-protocol-binding.md
 */
export const CE_HEADERS = {
  specversion: 'ce_specversion',
  /** The event's CloudEvents id: the producer's for an event taken in by `POST /events`, else hookrail's. */
  id: 'ce_id',
  /** hookrail's own event id (the `hookrailid` extension), on every event hookrail publishes: dedupe on it. */
  hookrailid: 'ce_hookrailid',
  source: 'ce_source',
  type: 'ce_type',
  time: 'ce_time',
  subject: 'ce_subject',
  /** The catalogue entry of the data's schema (`urn:hookrail:event:<type>`), on every event of a registered type. */
  dataschema: 'ce_dataschema',
  traceparent: 'ce_traceparent',
  /** The customer the event belongs to (the `customerid` extension): the `uid` the operator gave the customer. */
  customerid: 'ce_customerid',
  contentType: 'content-type',
} as const;

/** Headers hookrail adds to dead letters and replays. */
export const HOOKRAIL_HEADERS = {
  replayCount: 'hookrail_replay_count',
  /** On a replay: the `dead_letters` row it came from, so that a replay that fails again updates that row. */
  deadLetterId: 'hookrail_dead_letter_id',
  dltTopic: 'hookrail_dlt_original_topic',
  dltPartition: 'hookrail_dlt_original_partition',
  dltOffset: 'hookrail_dlt_original_offset',
  dltGroup: 'hookrail_dlt_group',
  dltEventId: 'hookrail_dlt_event_id',
  dltErrorClass: 'hookrail_dlt_error_class',
  dltErrorMessage: 'hookrail_dlt_error_message',
  dltErrorStack: 'hookrail_dlt_error_stack',
  dltAttempts: 'hookrail_dlt_attempts',
  dltFirstFailureAt: 'hookrail_dlt_first_failure_at',
  dltLastFailureAt: 'hookrail_dlt_last_failure_at',
  /** How long the message was retried before it was dead-lettered, in milliseconds (last − first failure). */
  dltRetriedForMs: 'hookrail_dlt_retried_for_ms',
  /** The dependency a message waited on when its retry ceiling ran out, e.g. `email-provider`. */
  dltDependency: 'hookrail_dlt_dependency',
  /**
   * On a dead letter of a group that parks keys: the id its `dead_letters` row takes, derived from the group and the
   * original coordinates, so that the runtime can park the key behind it before the store has indexed it.
   */
  dltId: 'hookrail_dlt_id',
} as const;
