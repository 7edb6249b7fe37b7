import { BaseEnv } from '@app/config';
import { AllowList, SsrfPolicy } from '@app/ssrf-guard';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min, ValidateBy } from 'class-validator';

const list = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : value;

/** An allow-list entry is a host name, an IP address or a CIDR range (AllowList.parse decides). */
function IsAllowList() {
  return ValidateBy({
    name: 'isAllowList',
    validator: {
      validate: (value: unknown) => {
        if (!Array.isArray(value)) return false;
        try {
          AllowList.parse(value as string[]);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => 'must be a comma-separated list of host names, IP addresses and CIDR ranges',
    },
  });
}

/**
 * The SSRF rules for customer webhook URLs, shared by every app that checks them: the ingress when an endpoint is
 * created (`/admin`), the CLI (`hookrail endpoints add`) and the consumers before every delivery. Each app's
 * environment class extends it, so the variables are read in one place per app and mean the same everywhere.
 */
export class OutboundWebhooksEnv extends BaseEnv {
  /**
   * The only way around the address rules: host names, addresses or CIDR ranges a webhook URL may point at even
   * though they are private, loopback or otherwise internal (e.g. `127.0.0.1` for local development), comma-separated.
   * Each app logs the exceptions it makes at start. `npm start` allows `127.0.0.1,::1,localhost`.
   */
  @Transform(list)
  @IsAllowList()
  OUTBOUND_WEBHOOKS_ALLOW_HOSTS: string[] = [];

  /** `true` allows `http` webhook URLs too (development); `https` only by default. `npm start` sets it. */
  @Transform(({ value }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  )
  @IsBoolean({ message: 'must be true or false' })
  OUTBOUND_WEBHOOKS_ALLOW_HTTP = false;

  /**
   * Ports a webhook URL may use besides 443 (https) and 80 (http), comma-separated. `npm start` allows 4014, the
   * development receiver's.
   */
  @Transform(({ value }) => (typeof value === 'string' ? (list({ value }) as string[]).map(Number) : value))
  @IsInt({ each: true, message: 'must be a comma-separated list of port numbers' })
  @Min(1, { each: true })
  @Max(65535, { each: true })
  OUTBOUND_WEBHOOKS_ALLOW_PORTS: number[] = [];
}

export function ssrfPolicyOf(env: OutboundWebhooksEnv): SsrfPolicy {
  return {
    allowHttp: env.OUTBOUND_WEBHOOKS_ALLOW_HTTP,
    allowPorts: env.OUTBOUND_WEBHOOKS_ALLOW_PORTS,
    allowList: AllowList.parse(env.OUTBOUND_WEBHOOKS_ALLOW_HOSTS),
  };
}

/**
 * The exceptions to the SSRF rules this process makes, for the one line every app logs at start; undefined when it
 * makes none (the norm in production).
 */
export function ssrfExceptions(
  policy: SsrfPolicy,
): { allowHosts: readonly string[]; allowHttp: boolean; allowPorts: readonly number[] } | undefined {
  if (policy.allowList.isEmpty && !policy.allowHttp && policy.allowPorts.length === 0) return undefined;
  return { allowHosts: policy.allowList.entries, allowHttp: policy.allowHttp, allowPorts: policy.allowPorts };
}
