import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/JSON export carries it, its attributes as plain values. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: number;
  attributes: Record<string, unknown>;
  /** The spans it links to (of other traces: an event's handling to its publisher's request). */
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
}

/** An export as it arrived: its path, content type and body. */
export interface ReceivedExport {
  path: string;
  contentType: string | undefined;
  body: Buffer;
}

/**
 * A collector's OTLP/HTTP receiver, as small as a test needs: it takes what
 * the OTLP exporter sends (JSON or protobuf), keeps it, and answers 200; or,
 * answering slowly, holds every export without an answer until it is stopped;
 * or, refusing, answers every export 400.
 */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  private readonly held: ServerResponse[] = [];
  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly url: string,
    private readonly mode: 'take' | 'slow' | 'refuse',
  ) {}

  static async start(mode: 'take' | 'slow' | 'refuse' = 'take'): Promise<OtlpReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`, mode);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => receiver.receive(request, response));
    return receiver;
  }

  /** Every span of every JSON export received so far. */
  spans(): ReceivedSpan[] {
    return this.exports
      .filter((received) => received.contentType === 'application/json')
      .flatMap((received) => {
        const body = JSON.parse(received.body.toString('utf8')) as OtlpJson;
        return body.resourceSpans.flatMap(({ resource, scopeSpans }) =>
          scopeSpans.flatMap(({ spans }) =>
            spans.map((span) => ({
              name: span.name,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              kind: span.kind,
              attributes: valuesOf(span.attributes),
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              status: span.status ?? {},
              resource: valuesOf(resource.attributes),
            })),
          ),
        );
      });
  }

  async stop(): Promise<void> {
    for (const response of this.held.splice(0)) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.exports.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      if (this.mode === 'slow') return void this.held.push(response);
      if (this.mode === 'refuse') {
        return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"no"}');
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }
}

interface OtlpJson {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{
      spans: Array<{
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        kind: number;
        attributes: KeyValue[];
        links?: Array<{ traceId: string; spanId: string }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

type KeyValue = { key: string; value: { stringValue?: string; intValue?: number | string; boolValue?: boolean } };

function valuesOf(attributes: KeyValue[]): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue)),
    ]),
  );
}
