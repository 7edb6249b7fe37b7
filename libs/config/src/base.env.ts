import { LOG_FORMATS, LogFormat } from '@app/logger';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsNotEmpty, IsString, Matches } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Variables every hookrail app reads. */
export class BaseEnv {
  @IsString()
  @IsNotEmpty()
  @Matches(/^postgres(ql)?:\/\/[^\s/]+\/[^\s/?]+(\?\S*)?$/, {
    message: 'must be a postgres:// URL with a database name, e.g. postgres://postgres@127.0.0.1:5432/hookrail',
  })
  DATABASE_URL: string;

  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((broker) => broker.trim()) : value))
  @ArrayNotEmpty()
  @Matches(/^[A-Za-z0-9.\-\[\]:]+:\d{1,5}$/, { each: true, message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /** `auto` (readable lines on a terminal, JSON otherwise), `json` or `pretty`. */
  @IsIn(LOG_FORMATS, { message: `must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';
}
