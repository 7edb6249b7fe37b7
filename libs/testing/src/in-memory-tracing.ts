import { setTracingOn } from '@app/tracing';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * Tracing on for the calling describe block, its spans kept in memory (`exporter.getFinishedSpans()`, emptied after
 * each test); off again after it.
 */
export function useInMemoryTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => {
    provider.register();
    setTracingOn(true);
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    setTracingOn(false);
    await provider.shutdown();
    trace.disable();
  });
  return exporter;
}
