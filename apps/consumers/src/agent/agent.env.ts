import { Secret } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, IsUrl, Max, Min } from 'class-validator';
import { WhenGroupRuns } from '../config/group-env';
import { isLoopbackUrl } from '../config/loopback-url';

/** The agent's configuration (group `agent`): its model and its task workers. */
export class AgentEnv {
  /** The agent's model: an OpenAI-compatible chat-completions API, up to `/v1`. The default is `npm run dev:model`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  MODEL_BASE_URL = 'http://127.0.0.1:4011/v1';

  /** The model the agent asks for. */
  @IsNotEmpty()
  MODEL_NAME = 'hookrail-dev';

  /**
   * The agent's key at its model, sent as `Authorization: Bearer …`. Required when the agent runs against a model that
   * is not on the loopback address.
   */
  @Secret()
  @WhenGroupRuns((env: AgentEnv) => !isLoopbackUrl(env.MODEL_BASE_URL))
  @IsString()
  @IsNotEmpty()
  MODEL_API_KEY?: string;

  /** One model call of the agent gives up after this long; the attempt counts as failed. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  MODEL_TIMEOUT_MS = 120_000;

  /** Agent tasks this process works on at the same time. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  AGENT_WORKERS = 4;

  /**
   * An agent task's claim is good for this long and renewed every third of it while the model call runs; then any
   * worker may take the task (at once if its process is gone).
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  AGENT_LEASE_MS = 30_000;

  /** How often an idle agent worker looks for a task. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  AGENT_POLL_INTERVAL_MS = 500;

  /**
   * Claims of one task before it is dead (and dead-lettered to `agent.dlt`); attempts that found the model down do not
   * count (CONSUMER_RETRY_CEILING_MS bounds those).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  AGENT_MAX_ATTEMPTS = 5;

  /**
   * Backoff after failed agent attempt n: a random wait up to this · 2^(n−1) (full jitter), at most
   * AGENT_RETRY_MAX_MS.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_BASE_MS = 2_000;

  /** The longest backoff between two attempts of an agent task. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_MAX_MS = 300_000;
}
