import { setTracingOn } from './spans';
import { tracingEnabled } from './tracing-enabled';
import { TracingEnv } from './tracing.env';

/** A process's tracing: `shutdown()` sends what is left and stops; nothing to do when it does not trace. */
export interface Tracing {
  readonly enabled: boolean;
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: async () => undefined };

/**
 * Starts the OpenTelemetry SDK when the environment asks for tracing (tracingEnabled): a Node tracer provider
 * (AsyncLocalStorage context) with a batch span processor and the OTLP/HTTP exporter, registered as the API's global
 * tracer provider. Otherwise the SDK is not even loaded and the API stays the no-op it is by default.
 */
export function startTracing(app: string, env: TracingEnv): Tracing {
  if (!tracingEnabled(env)) return OFF;
  // Loaded only here: a process that does not trace never loads the SDK.
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { detectResources, envDetector, resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const resource = detectResources({ detectors: [envDetector] }).merge(
    resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? `hookrail-${app}` }),
  );
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter(), { scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY }),
    ],
  });
  provider.register();
  setTracingOn(true);
  return {
    enabled: true,
    shutdown: async () => {
      setTracingOn(false);
      await provider.shutdown();
    },
  };
}
