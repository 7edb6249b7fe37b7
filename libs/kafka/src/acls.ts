import { CONSUMER_GROUPS, DEAD_LETTER_STORE_GROUP, dltTopic, replayTopic, TOPICS } from '@app/contracts';

/** The programs that reach Kafka, each with a principal of its own. */
export const KAFKA_PROGRAMS = ['admin', 'relay', 'consumers', 'cli'] as const;
export type KafkaProgram = (typeof KAFKA_PROGRAMS)[number];

export type AclOperation = 'READ' | 'WRITE' | 'DESCRIBE';

/** One ACL: `principal` may `operation` the topic or group `name` (a literal name, never a wildcard). */
export interface AclEntry {
  principal: string;
  resource: 'TOPIC' | 'GROUP';
  name: string;
  operation: AclOperation;
}

export interface AclOptions {
  /** KAFKA_NAMESPACE: the prefix of every topic and group name. */
  namespace?: string;
  /** The principal of each program (default `User:hookrail-<program>`). */
  principals?: Partial<Record<KafkaProgram, string>>;
  groups?: readonly string[];
}

/**
 * What each program needs of Kafka, and nothing more (READ and WRITE imply DESCRIBE; kafkajs's idempotent producer
 * needs WRITE on a topic, not IDEMPOTENT_WRITE on the cluster, since Kafka 3.0):
 * - admin (the operator plane): DESCRIBE the topics and groups (the catalogue, lag) and WRITE the replay topics (a
 *   replay from the operator API); the ingress never reaches Kafka;
 * - relay: WRITE the event topics the outbox publishes to;
 * - consumers: READ the event topics, every group's replay and dead-letter topics (the dead-letter store reads them
 *   all) and every group (theirs and the dead-letter store's), WRITE the dead-letter topics;
 * - cli: DESCRIBE the topics and groups (`hookrail lag`) and WRITE the replay topics (`hookrail dlq replay`).
 * Creating topics is none of theirs: `npm run topics:create` runs with an administrator's credentials.
 */
export function programAcls(options: AclOptions = {}): AclEntry[] {
  const ns = (name: string) => `${options.namespace ?? ''}${name}`;
  const groups = options.groups ?? CONSUMER_GROUPS;
  const events = Object.values(TOPICS).map(ns);
  const replays = groups.map((group) => ns(replayTopic(group)));
  const dlts = groups.map((group) => ns(dltTopic(group)));
  const groupIds = [...groups, DEAD_LETTER_STORE_GROUP].map(ns);
  const principal = (program: KafkaProgram) => options.principals?.[program] ?? `User:hookrail-${program}`;
  const topic = (program: KafkaProgram, operation: AclOperation, names: string[]): AclEntry[] =>
    names.map((name) => ({ principal: principal(program), resource: 'TOPIC', name, operation }));
  const group = (program: KafkaProgram, operation: AclOperation): AclEntry[] =>
    groupIds.map((name) => ({ principal: principal(program), resource: 'GROUP', name, operation }));
  return [
    ...topic('admin', 'DESCRIBE', [...events, ...dlts]),
    ...topic('admin', 'WRITE', replays),
    ...group('admin', 'DESCRIBE'),
    ...topic('relay', 'WRITE', events),
    ...topic('consumers', 'READ', [...events, ...replays, ...dlts]),
    ...topic('consumers', 'WRITE', dlts),
    ...group('consumers', 'READ'),
    ...topic('cli', 'DESCRIBE', [...events, ...dlts]),
    ...topic('cli', 'WRITE', replays),
    ...group('cli', 'DESCRIBE'),
  ];
}

/** The same ACL as the `kafka-acls` tool that ships with Kafka would add it. */
export function aclCommand(entry: AclEntry): string {
  const resource = entry.resource === 'TOPIC' ? '--topic' : '--group';
  return `kafka-acls.sh --bootstrap-server $BROKERS --command-config admin.properties --add --allow-principal ${entry.principal} --operation ${entry.operation[0]}${entry.operation.slice(1).toLowerCase()} ${resource} ${entry.name}`;
}
