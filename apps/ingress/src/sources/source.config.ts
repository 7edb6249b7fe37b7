import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

export const SCHEMES = ['standard-webhooks', 'stripe', 'github'] as const;
export type Scheme = (typeof SCHEMES)[number];

/** One entry of the sources file (HOOKRAIL_SOURCES). */
export class SourceConfig {
  /** URL segment: POST /webhooks/<name>. */
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'name must be lower-case letters, digits and dashes' })
  name: string;

  @IsIn(SCHEMES, { message: `scheme must be one of ${SCHEMES.join(', ')}` })
  scheme: Scheme;

  /** Active secrets, newest first; several at once during rotation. `env:NAME` reads the variable NAME, `file:/path` a
   * file (a mounted secret; one trailing line break is dropped). */
  @IsArray()
  @ArrayNotEmpty({ message: 'secrets must list at least one secret' })
  @IsString({ each: true })
  @MinLength(1, { each: true })
  secrets: string[];

  /** Kafka topic the source's events go to. */
  @Matches(/^[A-Za-z0-9._-]{1,249}$/, { message: 'topic must be a valid Kafka topic name' })
  topic: string;

  /** Dot path of the event type in the JSON body (default per scheme: `type`; GitHub uses its event header). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  typePath?: string;

  /** Dot path of the aggregate id (the Kafka key) in the body; the sender's event id when absent. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  aggregateIdPath?: string;

  /**
   * Dot path of the customer the event belongs to (a customer's `uid`, the `customerid` attribute); none when absent
   * from a delivery (the event goes to the operator's endpoints only).
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  customerIdPath?: string;

  /** Dot path of the event's data in the body (default: `data` for standard-webhooks, the whole body otherwise). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  dataPath?: string;

  /** Accepted clock difference for schemes that sign a timestamp. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3600)
  toleranceSeconds?: number;
}
