import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from './support/databases';
import { heapSnapshotOnSignal, heldObjects } from './support/heap-snapshot';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { REDIS_SKIP_REASON, REDIS_TEST_URL } from './support/redis';
import { freePort, logLinesOf, servicePerTest, type ServiceProcess } from './support/service-process';
import { RELEASE, TEST_API_KEY } from './support/test-app';
import { scaled, waitFor } from './support/wait-for';

const KEY = `tracer:${TEST_API_KEY}`;
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const TRACE_RESPONSE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0([01])$/;

/** A request with the test key and `headers`; the answer's headers as a plain object. */
async function send(
  baseUrl: string,
  path: string,
  options: { body?: object; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.body ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${TEST_API_KEY}`,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** The settings of a service that exports to `receiver` at once, as JSON (readable here). */
const exportingTo = (url: string, extra: Record<string, string> = {}) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '20',
  ...extra,
});

/** The trace and span ids an answer's `traceresponse` names, and whether it was sampled. */
function traceOf(headers: Record<string, string>) {
  const match = TRACE_RESPONSE.exec(String(headers.traceresponse));
  if (!match) throw new Error(`no traceresponse: ${JSON.stringify(headers)}`);
  return { traceId: match[1], spanId: match[2], sampled: match[3] === '1' };
}

/** The log line of the request with id `requestId`, once written (after the answer). */
async function logLineOf(service: ServiceProcess, requestId: string): Promise<Record<string, any>> {
  const line = () => logLinesOf(service.output()).find((entry) => entry.reqId === requestId);
  await waitFor(() => line() !== undefined, `the log line of request ${requestId}`);
  return line()!;
}

/** GET of a path no route serves, with `userAgent`, on a kept-alive connection: its status, or its error. */
function unknownPath(agent: Agent, port: number, userAgent: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get({
      host: '127.0.0.1',
      port,
      path: '/v1/no-such-path',
      agent,
      headers: { 'user-agent': userAgent },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function droppedSpans(service: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const match = /^petstore_tracing_spans_dropped_total (\d+)$/m.exec(text);
  return match ? Number(match[1]) : 0;
}

/** The built service with tracing on, exporting to a receiver the test starts (OTLP/HTTP). */
describe('tracing', () => {
  const service = servicePerTest(KEY);
  let receiver: OtlpReceiver | undefined;
  afterEach(async () => {
    await receiver?.stop();
    receiver = undefined;
  });

  const spansOf = (traceId: string) => receiver!.spans().filter((span) => span.traceId === traceId);
  /** Waits until the trace holds `count` spans, and gives them. */
  async function trace(traceId: string, count: number): Promise<ReceivedSpan[]> {
    await waitFor(() => spansOf(traceId).length >= count, `${count} spans of trace ${traceId}`);
    return spansOf(traceId);
  }

  for (const kind of DATABASE_KINDS) {
    describe.skipIf(kind.skipReason)(
      `on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
      () => {
        it("sends one span per request, named by its route template, with its statements as children, and logs the span's ids", async () => {
          receiver = await OtlpReceiver.start();
          const database = await kind.create();
          try {
            const running = await service.start({ ...exportingTo(receiver.url), DATABASE_URL: database.url });
            const created = await send(running.baseUrl, '/v1/pets', {
              body: { name: 'Rex', categoryId: 1 },
              headers: { 'idempotency-key': 'traced-create' },
            });
            expect(created.status).toBe(201);
            const fetched = await send(running.baseUrl, `/v1/pets/${created.body.id}`, {
              headers: { 'user-agent': 'tracing-test' },
            });
            expect(fetched.status).toBe(200);
            const { traceId, spanId, sampled } = traceOf(fetched.headers);
            expect(sampled).toBe(true);

            const spans = await trace(traceId, 2);
            const request = spans.find((span) => span.spanId === spanId)!;
            expect(request).toEqual({
              name: 'GET /v1/pets/:petId',
              traceId,
              spanId,
              parentSpanId: undefined,
              kind: 2, // SERVER
              links: [],
              attributes: {
                'http.request.method': 'GET',
                'http.route': '/v1/pets/:petId',
                'url.path': `/v1/pets/${created.body.id}`,
                'url.scheme': 'http',
                'network.protocol.version': '1.1',
                'client.address': '127.0.0.1',
                'user_agent.original': 'tracing-test',
                'http.response.status_code': 200,
                'petstore.api_key.name': 'tracer',
              },
              status: { code: 0 }, // unset: a 200
              resource: expect.objectContaining({
                'service.name': 'petstore',
                'service.version': RELEASE,
                'telemetry.sdk.name': 'opentelemetry',
              }),
            });
            const statement = spans.find((span) => span.spanId !== spanId)!;
            expect(statement).toMatchObject({
              name: 'SELECT pets',
              parentSpanId: spanId,
              kind: 3, // CLIENT
              attributes: {
                'db.system.name': kind.name === 'sqlite' ? 'sqlite' : 'postgresql',
                'db.operation.name': 'SELECT',
                'db.collection.name': 'pets',
                'db.query.text': expect.stringMatching(/^SELECT .* FROM pets WHERE /),
              },
            });
            // The log search and the trace meet: the line carries the request span's ids.
            expect(await logLineOf(running, fetched.headers['x-request-id'])).toMatchObject({
              trace_id: traceId,
              span_id: spanId,
            });

            // A create is a transaction, its statements inside it.
            const { traceId: createTrace, spanId: createSpan } = traceOf(created.headers);
            const createSpans = await trace(createTrace, 3);
            const transaction = createSpans.find((span) => span.name === 'transaction')!;
            expect(transaction).toMatchObject({
              parentSpanId: createSpan,
              attributes: { 'db.system.name': expect.any(String) },
            });
            expect(createSpans.find((span) => span.name === 'INSERT pets')).toMatchObject({
              parentSpanId: transaction.spanId,
            });
          } finally {
            await database.drop();
          }
        });
      },
    );
  }

  it("continues a caller's trace, honouring its sampled flag, and starts a new one for a malformed traceparent", async () => {
    receiver = await OtlpReceiver.start();
    const running = await service.start(exportingTo(receiver.url));
    const traceparent = (flags: string) => `00-${CALLER_TRACE}-${CALLER_SPAN}-${flags}`;

    const unsampled = await send(running.baseUrl, '/v1/pets', {
      headers: { traceparent: `00-${'1'.repeat(32)}-${CALLER_SPAN}-00` },
    });
    expect(unsampled.status).toBe(200);
    expect(traceOf(unsampled.headers)).toEqual({ traceId: '1'.repeat(32), spanId: expect.any(String), sampled: false });

    const continued = await send(running.baseUrl, '/v1/pets', {
      headers: { traceparent: traceparent('01'), tracestate: 'vendor=opaque' },
    });
    expect(continued.status).toBe(200);
    const { spanId } = traceOf(continued.headers);
    expect(traceOf(continued.headers)).toEqual({ traceId: CALLER_TRACE, spanId, sampled: true });
    const spans = await trace(CALLER_TRACE, 2);
    expect(spans.find((span) => span.kind === 2)).toMatchObject({
      name: 'GET /v1/pets',
      spanId,
      parentSpanId: CALLER_SPAN,
    });
    expect(spans.find((span) => span.kind === 3)).toMatchObject({ name: 'SELECT pets', parentSpanId: spanId });

    for (const malformed of [
      'garbage',
      `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`,
      `00-${CALLER_TRACE}-${CALLER_SPAN}`,
    ]) {
      const answer = await send(running.baseUrl, '/v1/pets', { headers: { traceparent: malformed } });
      expect(answer.status).toBe(200);
      const fresh = traceOf(answer.headers);
      expect(fresh.traceId).not.toBe(CALLER_TRACE);
      const own = await trace(fresh.traceId, 2);
      expect(own.find((span) => span.kind === 2)).toMatchObject({ spanId: fresh.spanId, parentSpanId: undefined });
    }
    // Exported after the unsampled request ended, the spans above show the export ran: none of its trace came.
    expect(spansOf('1'.repeat(32))).toEqual([]);
  });

  it('samples by trace id at a ratio: a sampled trace keeps the ids its answer and log line name, an unsampled one sends nothing', async () => {
    receiver = await OtlpReceiver.start();
    const running = await service.start(
      exportingTo(receiver.url, { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }),
    );
    const answers: Array<Awaited<ReturnType<typeof send>>> = [];
    for (let i = 0; i < 24; i++) answers.push(await send(running.baseUrl, '/v1/pets'));
    expect(answers.map((answer) => answer.status)).toEqual(Array(24).fill(200));
    const traces = answers.map((answer) => ({ ...traceOf(answer.headers), requestId: answer.headers['x-request-id'] }));
    const sampled = traces.filter((each) => each.sampled);
    const unsampled = traces.filter((each) => !each.sampled);
    // One in two: 24 requests give both kinds but once in about eight million runs.
    expect(sampled.length).toBeGreaterThan(0);
    expect(unsampled.length).toBeGreaterThan(0);
    for (const each of [...sampled, ...unsampled]) {
      expect(await logLineOf(running, each.requestId)).toMatchObject({ trace_id: each.traceId, span_id: each.spanId });
    }
    for (const each of sampled) {
      expect((await trace(each.traceId, 2)).find((span) => span.kind === 2)).toMatchObject({
        name: 'GET /v1/pets',
        spanId: each.spanId,
        parentSpanId: undefined,
      });
    }
    // The sampled traces arrived after every request had ended: none of an unsampled one came.
    for (const each of unsampled) expect(spansOf(each.traceId)).toEqual([]);
  });

  it('sends OTLP protobuf by default, to the traces path of the endpoint', async () => {
    receiver = await OtlpReceiver.start();
    const running = await service.start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '20' });
    const answer = await send(running.baseUrl, '/v1/pets');
    const { traceId } = traceOf(answer.headers);
    await waitFor(() => receiver!.exports.length > 0, 'an export');
    expect(receiver.exports[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
    // Protobuf carries the trace id as its 16 bytes.
    await waitFor(
      () => receiver!.exports.some((received) => received.body.includes(Buffer.from(traceId, 'hex'))),
      'the request span',
    );
  });

  it('sends nothing, and answers no traceresponse, when no endpoint is set', async () => {
    receiver = await OtlpReceiver.start();
    const running = await service.start({ OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_SERVICE_NAME: 'unused' });
    const answer = await send(running.baseUrl, '/v1/pets');
    expect(answer.status).toBe(200);
    expect(answer.headers.traceresponse).toBeUndefined();
    expect(await logLineOf(running, answer.headers['x-request-id'])).not.toHaveProperty('trace_id');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(receiver.exports).toEqual([]);
  });

  describe.skipIf(REDIS_SKIP_REASON)(`with Redis${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
    it("shows each rate-limit count in Redis as a child of the request's span", async () => {
      receiver = await OtlpReceiver.start();
      const running = await service.start({
        ...exportingTo(receiver.url),
        REDIS_URL: REDIS_TEST_URL!,
        REDIS_KEY_PREFIX: `tracing-${process.pid}-${Date.now()}:`,
      });
      const answer = await send(running.baseUrl, '/v1/pets');
      expect(answer.status).toBe(200);
      const { traceId, spanId } = traceOf(answer.headers);
      const spans = await trace(traceId, 3);
      const { hostname, port } = new URL(REDIS_TEST_URL!);
      expect(spans.find((span) => span.name === 'rate-limit count')).toMatchObject({
        parentSpanId: spanId,
        kind: 3,
        attributes: { 'db.system.name': 'redis', 'server.address': hostname, 'server.port': Number(port || 6379) },
      });
    });
  });

  describe('when the collector fails', () => {
    /** Twenty requests, each answered 200 within `bound`: the collector's trouble is not the caller's. */
    async function requestsUnaffected(running: ServiceProcess, bound: number): Promise<void> {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const answer = await send(running.baseUrl, '/v1/pets');
        expect(answer.status).toBe(200);
        expect(performance.now() - started).toBeLessThan(bound);
      }
    }

    const warnings = (running: ServiceProcess) =>
      logLinesOf(running.output()).filter((line) => line.context === 'Tracing' && line.level === 40);

    it('is down: requests are unaffected, the lost spans are counted, and one warning line says so, without credentials', async () => {
      // Credentials in the endpoint (a user, a password, a token in the query) never reach a line.
      const endpoint = `http://user:password@127.0.0.1:${await freePort()}/v1/traces?token=secret-token`;
      const running = await service.start({
        ...exportingTo('http://unused'),
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_TIMEOUT: '300',
      });
      await requestsUnaffected(running, scaled(2_000));
      await waitFor(async () => (await droppedSpans(running)) >= 20, 'the 20 lost spans counted');
      await requestsUnaffected(running, scaled(2_000));
      await waitFor(async () => (await droppedSpans(running)) >= 40, 'the next 20 counted too');
      expect(warnings(running)).toEqual([
        expect.objectContaining({
          reason: expect.stringMatching(/^export failed: .*ECONNREFUSED/),
          msg: expect.stringMatching(
            /^spans cannot be delivered to http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\/traces\?token=\*\*\*: dropping them \(counted in petstore_tracing_spans_dropped_total\) until the collector takes them again$/,
          ),
        }),
      ]);
      expect(running.output()).not.toMatch(/password|secret-token/);
    });

    it('is down under a flood of requests with long headers: spans keep no header whole, the exports in flight are bounded, the lost spans counted', async () => {
      const snapshots = mkdtempSync(join(tmpdir(), 'petstore-heap-'));
      try {
        const running = await service.start({
          ...exportingTo(`http://127.0.0.1:${await freePort()}`),
          ...heapSnapshotOnSignal(snapshots),
        });
        const port = Number(new URL(running.baseUrl).port);
        // 16 clients, 1,000 requests each for an unknown path, every one with a 15,000-byte User-Agent: each of them an
        // attribute of a span that cannot be delivered.
        const agent = new Agent({ keepAlive: true, maxSockets: 16 });
        const userAgent = 'x'.repeat(15_000);
        const statuses = new Set<number | string>();
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            for (let n = 0; n < 1_000; n++) statuses.add(await unknownPath(agent, port, userAgent));
          }),
        );
        agent.destroy();
        expect([...statuses]).toEqual([404]);
        running.child.kill('SIGTTIN');
        const held = await heldObjects(snapshots);
        // No span keeps the header whole: it is cut to OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT (1,024) in a string of its own.
        const userAgents = held.stringLengths(userAgent.slice(0, 100));
        expect(userAgents.length).toBeGreaterThan(0);
        expect(userAgents.filter((length) => length > 1_024)).toEqual([]);
        // The spans held: the queue (2,048) and the batches in flight (two of 512), with 64 to spare for the requests
        // under way and spans ended but not yet queued (loaded machines' snapshots held up to 3,090): a bound, where
        // the 16,000 spans made would be held without one.
        expect(held.count('SpanImpl')).toBeLessThanOrEqual(2_048 + 2 * 512 + 64);
        await waitFor(async () => (await droppedSpans(running)) >= 10_000, 'the lost spans counted', 60_000);
        await requestsUnaffected(running, scaled(2_000));
      } finally {
        rmSync(snapshots, { recursive: true, force: true });
      }
    });

    it('answers slowly: requests are unaffected, the spans of exports that time out are counted, one warning line', async () => {
      receiver = await OtlpReceiver.start('slow');
      const running = await service.start(exportingTo(receiver.url, { OTEL_EXPORTER_OTLP_TIMEOUT: '200' }));
      await requestsUnaffected(running, scaled(2_000));
      await waitFor(() => receiver!.exports.length > 0, 'an export held by the collector');
      await waitFor(async () => (await droppedSpans(running)) > 0, 'the spans of the held export counted');
      await requestsUnaffected(running, scaled(2_000));
      expect(warnings(running)).toEqual([
        expect.objectContaining({
          reason: expect.stringMatching(/^export failed: /),
          msg: expect.stringMatching(
            /^spans cannot be delivered to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: dropping them/,
          ),
        }),
      ]);
    });

    it('refuses every export: requests are unaffected, the refused spans are counted, one warning line', async () => {
      receiver = await OtlpReceiver.start('refuse');
      const running = await service.start(exportingTo(receiver.url));
      await requestsUnaffected(running, scaled(2_000));
      await waitFor(async () => (await droppedSpans(running)) >= 20, 'the refused spans counted');
      await requestsUnaffected(running, scaled(2_000));
      await waitFor(async () => (await droppedSpans(running)) >= 40, 'the next ones counted too');
      expect(warnings(running)).toEqual([
        expect.objectContaining({ reason: expect.stringMatching(/^export failed: /) }),
      ]);
    });
  });

  it('sends the spans of the requests answered before SIGTERM as it stops', async () => {
    receiver = await OtlpReceiver.start();
    // No export before the shutdown: the spans wait in the queue.
    const running = await service.start(exportingTo(receiver.url, { OTEL_BSP_SCHEDULE_DELAY: '600000' }));
    const traces: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await send(running.baseUrl, '/v1/pets');
      traces.push(traceOf(answer.headers).traceId);
    }
    expect(receiver.exports).toEqual([]);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(
      traces.map((traceId) =>
        spansOf(traceId)
          .map((span) => span.name)
          .sort(),
      ),
    ).toEqual([
      ['GET /v1/pets', 'SELECT pets'],
      ['GET /v1/pets', 'SELECT pets'],
      ['GET /v1/pets', 'SELECT pets'],
    ]);
  });
});
