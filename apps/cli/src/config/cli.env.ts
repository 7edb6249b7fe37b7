import { DEFAULT_DATABASE_URL } from '@app/db/light';
import { OutboundWebhooksEnv } from '@app/webhooks/light';
import { IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

/** The CLI's configuration: the same variables as the apps it inspects (the SSRF rules from OutboundWebhooksEnv). */
export class CliEnv extends OutboundWebhooksEnv {
  /**
   * The database the CLI works on, a Postgres URL as the apps were started with; when it is not set, the one
   * `npm start` and `db:migrate` use (database `hookrail` on 127.0.0.1). The CLI names the database it used on stderr.
   */
  override DATABASE_URL = DEFAULT_DATABASE_URL;

  /**
   * Prefix of every topic and consumer group id, as the apps were started with: whose groups `hookrail lag` shows (a
   * dead letter keeps its own replay topic).
   */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /**
   * Who you are in the audit (`operator_audit`); `--as` overrides it.
   *
   * @default your login name
   */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  HOOKRAIL_OPERATOR?: string;

  /** Where customers reach the portal, as the admin app was started with: `hookrail customers portal-link` uses it. */
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'must be an http(s) URL' },
  )
  PORTAL_PUBLIC_URL = 'http://127.0.0.1:3200';
}
