import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export class CustomerV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  id: string;

  @IsEmail()
  email: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

export class LineItemV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  sku: string;

  @IsInt()
  @Min(1)
  quantity: number;

  /** Price of one unit in minor units (cents). */
  @IsInt()
  @Min(0)
  unitAmount: number;
}

/** Fields every shop order event carries. */
export class OrderFieldsV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;

  @ValidateNested()
  @Type(() => CustomerV1)
  customer: CustomerV1;

  /** Total in minor units (cents); never a float. */
  @IsInt()
  @Min(0)
  amount: number;

  /** ISO 4217 code, upper case. */
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => LineItemV1)
  lineItems: LineItemV1[];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}
