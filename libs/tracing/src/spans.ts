import { Attributes, context, Context, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export { SpanKind, SpanStatusCode };
export type { Span };

let on = false;

/**
 * Whether this process traces (startTracing turned it on). Callers test it before building a span's name and
 * attributes, so that a process that does not trace does no work for spans at all.
 */
export function tracingOn(): boolean {
  return on;
}

/** For startTracing and tests only. */
export function setTracingOn(value: boolean): void {
  on = value;
}

export interface SpanSpec {
  name: string;
  kind: SpanKind;
  /** The parent's context (contextOf a `traceparent`), or the active one. */
  parent?: Context;
  attributes?: Attributes;
}

/**
 * Runs `fn` in a new span, active for the code it calls, ended when `fn` settles; an error marks the span failed and
 * is thrown on.
 */
export async function inSpan<T>(spec: SpanSpec, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = spec.parent ?? context.active();
  const span = startSpan(spec);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** A span the caller ends (spans that end together, as the messages of one produce request). */
export function startSpan(spec: SpanSpec): Span {
  return trace
    .getTracer('hookrail')
    .startSpan(spec.name, { kind: spec.kind, attributes: spec.attributes }, spec.parent ?? context.active());
}

/** Marks the span failed with the error. */
export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The span of the code running now, when this process traces. */
export function activeSpan(): Span | undefined {
  return on ? trace.getActiveSpan() : undefined;
}
