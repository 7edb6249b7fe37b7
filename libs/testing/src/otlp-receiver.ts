import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as an OTLP/HTTP JSON export carries it, with its process's `service.name`. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

export const OTLP_SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
      }>;
    }>;
  }>;
}

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

function attributesOf(list: KeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, standing in for a collector: it takes the JSON exports of
 * `@opentelemetry/exporter-trace-otlp-http` at `/v1/traces` and keeps every span. Point a process at it with
 * `OTEL_EXPORTER_OTLP_ENDPOINT=<receiver.url>`.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests it could not read (not JSON, another path): a test expects none. */
  readonly refused: string[] = [];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = http.createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (request, response) => void receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    try {
      if (request.method !== 'POST' || request.url !== '/v1/traces')
        throw new Error(`${request.method} ${request.url}`);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      this.keep(JSON.parse(body.toString('utf8')) as ExportRequest);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch (error) {
      this.refused.push(`${(error as Error).message} (${request.headers['content-type']})`);
      response.writeHead(400).end();
    }
  }

  private keep(request: ExportRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
          });
    }
  }
}
