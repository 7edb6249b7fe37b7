import { DEFAULT_DATABASE_URL } from '@app/db';
import { OutboundWebhooksEnv } from '@app/webhooks';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** The CLI's configuration: the same variables as the apps it inspects (the SSRF rules from OutboundWebhooksEnv). */
export class CliEnv extends OutboundWebhooksEnv {
  /** Where `npm start` and `db:migrate` point when it is not set: database `hookrail` on 127.0.0.1. */
  override DATABASE_URL = DEFAULT_DATABASE_URL;

  /** Prefix of every topic and consumer group id, as the apps were started with. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /** The operator's name in the audit table (default: the login name); `--as` overrides it. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  HOOKRAIL_OPERATOR?: string;
}
