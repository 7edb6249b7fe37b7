import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

export const TRACES_EXPORTERS = ['otlp', 'none'] as const;

/**
 * The standard OpenTelemetry variables the ingress, the relay and the consumers read to decide whether they trace
 * (tracingEnabled) and where spans go. The SDK reads the other standard ones itself (OTEL_TRACES_SAMPLER,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES, the other OTEL_BSP_* …).
 */
export class TracingEnv {
  /** `true`: no tracing, whatever the other OTEL_* variables say. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  OTEL_SDK_DISABLED = false;

  /**
   * `otlp`: trace, sending spans over OTLP/HTTP (JSON bodies); `none`: do not trace. Tracing is off by default: it is
   * on with `otlp`, or when this is unset and an OTLP endpoint is set.
   * @default unset: `otlp` when an OTLP endpoint is set, else off
   */
  @IsOptional()
  @IsIn(TRACES_EXPORTERS, { message: `must be one of ${TRACES_EXPORTERS.join(', ')}` })
  OTEL_TRACES_EXPORTER?: (typeof TRACES_EXPORTERS)[number];

  /**
   * The OTLP/HTTP receiver (a collector), e.g. `http://otel-collector:4318`; spans go to `<it>/v1/traces`. Setting it
   * turns tracing on.
   * @default `http://localhost:4318` once tracing is on
   */
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /**
   * The full URL spans are sent to, taking precedence over OTEL_EXPORTER_OTLP_ENDPOINT. Setting it turns tracing on.
   */
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /**
   * The `service.name` of the process's spans.
   * @default `hookrail-ingress`, `hookrail-relay`, `hookrail-consumers`
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  OTEL_SERVICE_NAME?: string;

  /** Longest wait in milliseconds before finished spans are sent, together, in one export. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  OTEL_BSP_SCHEDULE_DELAY = 5000;
}
