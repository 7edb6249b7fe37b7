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

/** The customer who placed the order. */
export class CustomerV1 {
  /** The shop's customer id. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  id: string;

  /** Where the order emails go. */
  @IsEmail()
  email: string;

  /** The customer's name, when the shop has it. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;
}

/** One line of an order: a product, how many, at what price. */
export class LineItemV1 {
  /** The product's stock-keeping unit. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  sku: string;

  /** Units ordered, at least 1. */
  @IsInt()
  @Min(1)
  quantity: number;

  /** Price of one unit in minor units of the order's currency (cents), never a fraction. */
  @IsInt()
  @Min(0)
  unitAmount: number;
}

/** Fields every shop order event carries. */
export class OrderFieldsV1 {
  /** The shop's order id; every event of one order carries the same. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;

  /** Who ordered. */
  // Required and an object: @ValidateNested() alone would let a missing customer or an array through.
  @IsObject()
  @ValidateNested()
  @Type(() => CustomerV1)
  customer: CustomerV1;

  /** The order total in minor units of `currency` (cents), never a fraction. */
  @IsInt()
  @Min(0)
  amount: number;

  /** ISO 4217 code, upper case, e.g. `EUR`. */
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;

  /** What was ordered: at least one line. */
  // Objects only: @ValidateNested({ each: true }) alone would also pass arrays as elements.
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => LineItemV1)
  lineItems: LineItemV1[];

  /** The customer's note to the shop, if any. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}
