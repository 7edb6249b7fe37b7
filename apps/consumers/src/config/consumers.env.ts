import { BaseEnv } from '@app/config';
import { CONSUMER_GROUPS } from '@app/contracts';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn } from 'class-validator';

/** The consumer services' configuration; read from the environment once, in main.ts. */
export class ConsumersEnv extends BaseEnv {
  /** Which consumer groups this process runs, e.g. `ledger,notifier`; all by default. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((group) => group.trim()).filter(Boolean) : value))
  @ArrayNotEmpty()
  @IsIn(CONSUMER_GROUPS, { each: true, message: `must list groups among ${CONSUMER_GROUPS.join(', ')}` })
  CONSUMER_GROUPS: string[] = [...CONSUMER_GROUPS];
}
