import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';

/** The dead-letter store's settings, read with the consumers app's configuration (apps/consumers/src/main.ts). */
export class DeadLetterStoreEnv {
  /**
   * Whether this consumers process also runs the dead-letter store (`true`/`false`, `1`/`0`): indexes every group's
   * dead letters and runs their retention job. Processes of different versions share the work, each dead-letter topic
   * read by a process that knows its group.
   */
  @Transform(({ value }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  )
  @IsBoolean({ message: 'must be true or false' })
  DEAD_LETTER_STORE = true;

  /** Days resolved and purged dead letters are kept before the retention job deletes them. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  DEAD_LETTER_RETENTION_DAYS = 14;

  /** How often the dead-letter retention job runs. */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  DEAD_LETTER_RETENTION_INTERVAL_MS = 3_600_000;
}
