import { BaseEnv } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Max, Min, MinLength } from 'class-validator';

/** The ingress's configuration; read from the environment once, in main.ts. */
export class IngressEnv extends BaseEnv {
  @Type(() => Number)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Path to the JSON file that lists the webhook sources. */
  @IsString()
  @IsNotEmpty()
  HOOKRAIL_SOURCES: string;

  /** Bearer token for /admin; long enough that guessing is not an option. */
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN: string;
}
