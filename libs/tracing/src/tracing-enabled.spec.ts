import { trace } from '@opentelemetry/api';
import { loadConfig } from '@app/config';
import { startTracing } from './start-tracing';
import { tracingOn } from './spans';
import { tracingEnabled } from './tracing-enabled';
import { TracingEnv } from './tracing.env';

const ENDPOINT = 'http://collector:4318';

function enabled(env: Record<string, string>): boolean {
  return tracingEnabled(loadConfig(TracingEnv, env));
}

describe('tracingEnabled', () => {
  it('is off by default', () => {
    expect(enabled({})).toBe(false);
  });

  it.each([
    ['an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    ['an OTLP traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }],
    ['OTEL_TRACES_EXPORTER=otlp', { OTEL_TRACES_EXPORTER: 'otlp' }],
    ['otlp and an endpoint', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    ['OTEL_SDK_DISABLED=false and an endpoint', { OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
  ])('is on with %s', (_, env) => {
    expect(enabled(env)).toBe(true);
  });

  it.each([
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }],
    ['OTEL_SDK_DISABLED=true and an endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }],
    [
      'OTEL_TRACES_EXPORTER=none and an endpoint',
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT },
    ],
    ['an empty endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: '' }],
  ])('is off with %s', (_, env) => {
    expect(enabled(env)).toBe(false);
  });

  it.each([
    ['OTEL_TRACES_EXPORTER=zipkin', { OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    ['OTEL_SDK_DISABLED=yes', { OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED'],
    ['an endpoint that is no URL', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ])('refuses %s at start, naming the variable', (_, env, name) => {
    expect(() => loadConfig(TracingEnv, env)).toThrow(new RegExp(`^configuration error: ${name} `));
  });
});

describe('startTracing when tracing is off', () => {
  it('leaves the API its no-op: spans record nothing and carry no context', async () => {
    const tracing = startTracing('relay', loadConfig(TracingEnv, {}));
    expect(tracing.enabled).toBe(false);
    expect(tracingOn()).toBe(false);
    const span = trace.getTracer('hookrail').startSpan('send orders');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('00000000000000000000000000000000');
    await tracing.shutdown();
  });
});
