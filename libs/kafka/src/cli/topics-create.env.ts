import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, IsInt, Matches, Min } from 'class-validator';

/** What `npm run topics:create` reads: the broker, the names' prefix and the partition count of new topics. */
export class TopicsCreateEnv {
  /** The Kafka brokers to create the topics on, a comma-separated `host:port` list. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((broker) => broker.trim()) : value))
  @ArrayNotEmpty()
  @Matches(/^[A-Za-z0-9.\-\[\]:]+:\d{1,5}$/, { each: true, message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  /** Prefix of every topic created, as the consumers app prefixes the topics it subscribes to. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /** Partitions of each topic created; existing topics keep theirs. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOPIC_PARTITIONS = 6;
}
