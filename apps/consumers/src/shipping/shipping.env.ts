import { Secret } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUrl, Min } from 'class-validator';
import { WhenGroupRuns } from '../config/group-env';
import { isLoopbackUrl } from '../config/loopback-url';

/** The shipping participant's configuration (group `shipping`): its carrier. */
export class ShippingEnv {
  /** The carrier's HTTP API (group `shipping`); the default is `npm run dev:shipping-provider`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  SHIPPING_PROVIDER_URL = 'http://127.0.0.1:4013';

  /**
   * The key of group `shipping` at its carrier, sent as `Authorization: Bearer …`. Required when `shipping` runs
   * against a carrier that is not on the loopback address.
   */
  @Secret()
  @WhenGroupRuns((env: ShippingEnv) => !isLoopbackUrl(env.SHIPPING_PROVIDER_URL))
  @IsString()
  @IsNotEmpty()
  SHIPPING_PROVIDER_API_KEY?: string;

  /** One carrier call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  SHIPPING_PROVIDER_TIMEOUT_MS = 10_000;
}
