import { IsInt, IsNotEmpty, IsString, IsUUID, MaxLength, Min } from 'class-validator';

/** What every saga command carries: the saga it belongs to and the key that makes its effect happen once. */
export class SagaCommandFieldsV1 {
  @IsUUID()
  sagaId: string;

  /** Stable per saga step and direction: a resent command carries the same key, so a provider acts once. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  idempotencyKey: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;
}

/** What every reply to a saga command carries: the saga, the command it answers, and the order. */
export class SagaReplyFieldsV1 {
  @IsUUID()
  sagaId: string;

  @IsUUID()
  commandId: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  orderId: string;
}

/** A reply saying the command could not be carried out, and why. */
export class SagaFailureReplyFieldsV1 extends SagaReplyFieldsV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reason: string;
}

/** One line of stock: a SKU and how many units. */
export class StockLineV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  sku: string;

  @IsInt()
  @Min(1)
  quantity: number;
}
