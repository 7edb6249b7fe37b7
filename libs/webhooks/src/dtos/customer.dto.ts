import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CUSTOMER_TOKEN_TTL } from '../customers/customer-token';

/** POST /admin/customers, `hookrail customers add`. */
export class CreateCustomerDto {
  /** The operator's own id for the customer: what its events carry in their `customerid` attribute. */
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/, {
    message: 'uid must be 1 to 200 letters, digits or ._:@- (starting with a letter or digit)',
  })
  uid: string;

  @IsString()
  @IsNotEmpty({ message: 'name is required' })
  @MaxLength(200)
  name: string;
}

/** POST /admin/customers/:id/tokens (the expiry is parsed by the caller). */
export class CreateCustomerTokenDto {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    message: 'name must be 1 to 100 letters, digits or ._- (starting with a letter or digit)',
  })
  name: string;

  /** A duration (30d, 12h, 90m) or an ISO time; at most a year ahead. Default 90 days. */
  @IsOptional()
  @IsString()
  expires?: string;
}

/** POST /admin/customers/:id/portal-links */
export class CreatePortalLinkDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(CUSTOMER_TOKEN_TTL.linkMaxMinutes)
  expiresInMinutes: number = CUSTOMER_TOKEN_TTL.linkDefaultMinutes;
}

/** POST /customer/v1/sessions */
export class OpenSessionDto {
  @IsString()
  @IsNotEmpty({ message: 'link is required (the token after #link= in the portal link)' })
  @MaxLength(200)
  link: string;
}

/** POST /customer/v1/endpoints/:id/test */
export class TestDeliveryDto {
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, { message: 'eventType must be an event type (shop.order.placed.v1)' })
  eventType?: string;
}
