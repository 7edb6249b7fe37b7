/** What a program may import without loading kafkajs: the connection settings and the explanation of a refusal. */
export * from './kafka-connection';
export * from './kafka-errors';
