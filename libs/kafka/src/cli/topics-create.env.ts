import { KafkaEnv } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, Matches, Min } from 'class-validator';

/**
 * What `npm run topics:create` reads: how to reach Kafka (an administrator's credentials: the apps may not create
 * topics), the names' prefix and the partition count of new topics.
 */
export class TopicsCreateEnv extends KafkaEnv {
  /** Prefix of every topic created, as the consumers app prefixes the topics it subscribes to. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /** Partitions of each topic created; existing topics keep theirs. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOPIC_PARTITIONS = 6;
}
