import { Secret } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUrl, Min } from 'class-validator';
import { WhenGroupRuns } from '../config/group-env';
import { isLoopbackUrl } from '../config/loopback-url';

/** The notifier's configuration (group `notifier`): its email provider and sender. */
export class NotifierEnv {
  /** The notifier's email provider, its HTTP API. The default is `npm run dev:email-provider` on this machine. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  EMAIL_PROVIDER_URL = 'http://127.0.0.1:4010';

  /**
   * The notifier's key at its email provider, sent as `Authorization: Bearer …`. Required when the notifier runs
   * against a provider that is not on the loopback address.
   */
  @Secret()
  @WhenGroupRuns((env: NotifierEnv) => !isLoopbackUrl(env.EMAIL_PROVIDER_URL))
  @IsString()
  @IsNotEmpty()
  EMAIL_PROVIDER_API_KEY?: string;

  /** The sender address of the notifier's order emails. */
  @IsNotEmpty()
  EMAIL_FROM = 'orders@hookrail.localhost';

  /** One email provider call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  EMAIL_PROVIDER_TIMEOUT_MS = 10_000;
}
