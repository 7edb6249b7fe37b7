import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
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

  /** Required and an object: @ValidateNested() alone would let a missing customer or an array through. */
  @IsObject()
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

  /** Objects only: @ValidateNested({ each: true }) alone would also pass arrays as elements. */
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => LineItemV1)
  lineItems: LineItemV1[];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}
