import { LOG_FORMATS, LogFormat } from '@app/logger/light';
import { IsIn, IsNotEmpty, IsString, Matches } from 'class-validator';
import { KafkaEnv } from './kafka.env';
import { Secret } from './secret';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Variables every hookrail app reads. */
export class BaseEnv extends KafkaEnv {
  /**
   * Postgres URL with a database name, e.g. `postgres://postgres@127.0.0.1:5432/hookrail`. `npm start`, `db:migrate`,
   * `db:check` and `ledger:balances` use that one when it is not set. It holds the password: give it as
   * DATABASE_URL_FILE to keep it out of the environment. TLS: `?sslmode=verify-full&sslrootcert=/path/ca.pem`
   * (docs/operations.md, Production connections).
   */
  @Secret()
  @IsString()
  @IsNotEmpty()
  @Matches(/^postgres(ql)?:\/\/[^\s/]+\/[^\s/?]+(\?\S*)?$/, {
    message: 'must be a postgres:// URL with a database name, e.g. postgres://postgres@127.0.0.1:5432/hookrail',
  })
  DATABASE_URL: string;

  /** The least severe level logged: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent` (nothing). */
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /**
   * `auto` writes readable lines (pino-pretty) when stdout is a terminal and JSON otherwise; `json` and `pretty` force
   * one. `npm start` asks for `pretty` on a terminal.
   */
  @IsIn(LOG_FORMATS, { message: `must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';
}
