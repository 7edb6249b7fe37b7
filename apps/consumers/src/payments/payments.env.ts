import { Secret } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUrl, Min } from 'class-validator';
import { WhenGroupRuns } from '../config/group-env';
import { isLoopbackUrl } from '../config/loopback-url';

/** The payments participant's configuration (group `payments`): its payment provider. */
export class PaymentsEnv {
  /** The payment provider's HTTP API (group `payments`); the default is `npm run dev:payment-provider`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  PAYMENT_PROVIDER_URL = 'http://127.0.0.1:4012';

  /**
   * The key of group `payments` at its provider, sent as `Authorization: Bearer …`. Required when `payments` runs
   * against a provider that is not on the loopback address.
   */
  @Secret()
  @WhenGroupRuns((env: PaymentsEnv) => !isLoopbackUrl(env.PAYMENT_PROVIDER_URL))
  @IsString()
  @IsNotEmpty()
  PAYMENT_PROVIDER_API_KEY?: string;

  /** One payment provider call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  PAYMENT_PROVIDER_TIMEOUT_MS = 10_000;
}
