import { IsInt, IsNotEmpty, IsString, IsUUID, MaxLength, Min } from 'class-validator';

/** What every saga command carries: the saga it belongs to and the key that makes its effect happen once. */
export class SagaCommandFieldsV1 {
  /** The saga that sends the command; its replies name it. */
  @IsUUID()
  sagaId: string;

  /** Stable per saga step and direction: a command sent again carries the same key, so a provider acts once. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  idempotencyKey: string;

  /** The order the saga fulfils. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;
}

/** What every reply to a saga command carries: the saga, the command it answers, and the order. */
export class SagaReplyFieldsV1 {
  /** The saga the reply answers. */
  @IsUUID()
  sagaId: string;

  /** The event id (`ce_hookrailid`, equal to `ce_id` on a command hookrail makes) of the command it answers. */
  @IsUUID()
  commandId: string;

  /** The order the saga fulfils. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;
}

/** A reply saying the command could not be carried out, and why. */
export class SagaFailureReplyFieldsV1 extends SagaReplyFieldsV1 {
  /** Why, in words: e.g. what the provider answered. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reason: string;
}

/** One line of stock: a SKU and how many units. */
export class StockLineV1 {
  /** The product's stock-keeping unit. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  sku: string;

  /** Units, at least 1. */
  @IsInt()
  @Min(1)
  quantity: number;
}
