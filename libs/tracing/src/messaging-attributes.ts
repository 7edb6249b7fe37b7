/** OpenTelemetry semantic-convention attribute names hookrail's spans carry (messaging, HTTP). */
export const ATTR = {
  messagingSystem: 'messaging.system',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
  destination: 'messaging.destination.name',
  partition: 'messaging.destination.partition.id',
  consumerGroup: 'messaging.consumer.group.name',
  messageId: 'messaging.message.id',
  kafkaKey: 'messaging.kafka.message.key',
  kafkaOffset: 'messaging.kafka.offset',
  batchCount: 'messaging.batch.message_count',
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  errorType: 'error.type',
} as const;

export const KAFKA = 'kafka';
