import { TracingEnv } from './tracing.env';

/**
 * Whether a process traces: never with `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`; with
 * `OTEL_TRACES_EXPORTER=otlp`; and, that variable unset, only when an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. Unlike the SDK's own default (`otlp`), nothing is traced until
 * someone says where spans go.
 */
export function tracingEnabled(
  env: Pick<
    TracingEnv,
    'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  >,
): boolean {
  if (env.OTEL_SDK_DISABLED) return false;
  if (env.OTEL_TRACES_EXPORTER !== undefined) return env.OTEL_TRACES_EXPORTER === 'otlp';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
