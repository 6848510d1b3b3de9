import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { JSON_CONTENT_TYPE, type ErrorBody } from '../errors/error-body';
import { PLATFORM_ERROR_CODES as CODES } from '../errors/error-catalogue';
import { RefusalLog } from '../logging/refusal-log';
import { pathOf, requestIdOf } from '../http/request-state';

/** Records an answer given outside the routes, for the metrics. */
export type EdgeCounter = (method: string, status: number) => void;

/** What Node's HTTP parser reports, in the contract's words. */
function bodyOfClientError(error: NodeJS.ErrnoException): ErrorBody {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: CODES.requestTimeout, message: 'the request was not received in time', status: 408 };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { code: CODES.headersTooLarge, message: 'the request line and headers exceed 16 KiB', status: 431 };
  }
  return {
    code: CODES.badRequest,
    message: 'the request is not valid HTTP/1.1 (for example Content-Length with Transfer-Encoding, or a bad header)',
    status: 400,
  };
}

/**
 * The answers given below Fastify's router and hooks: Node's refusals of malformed requests (`clientError`), of unknown
 * `Expect` values and of `CONNECT` (which no route serves). In the Error shape, with a request id and the security
 * headers like every other answer, logged and counted.
 */
export class EdgeResponses {
  private count: EdgeCounter = () => undefined;
  private methods: () => string[] = () => [];
  /** The API's security headers, once a capability provides them. */
  securityHeaders: Readonly<Record<string, string>> = {};

  constructor(private readonly logger: Logger) {}

  countWith(counter: EdgeCounter): void {
    this.count = counter;
  }

  /** Where the methods the routes serve come from, for the `Allow` of a refused CONNECT. */
  allowWith(methods: () => string[]): void {
    this.methods = methods;
  }

  /** Fastify's `clientErrorHandler`: the request could not even be parsed. */
  readonly clientError = (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const body = bodyOfClientError(error);
    const id = randomUUID();
    this.answerAndClose(socket, id, body);
    this.record(id, 'UNKNOWN', undefined, body, error.code);
  };

  /** Node's `connect`: a proxy's method, which no route serves. */
  readonly connectRefused = (request: IncomingMessage, socket: Socket): void => {
    const id = requestIdOf(request);
    const allowed = this.methods().join(', ');
    const body: ErrorBody = {
      code: CODES.methodNotAllowed,
      message: `CONNECT is not supported: this service is not a proxy; use ${allowed}`,
      status: 405,
    };
    this.answerAndClose(socket, id, body, { allow: allowed });
    this.record(id, 'CONNECT', request.url, body);
  };

  private answerAndClose(socket: Socket, id: string, body: ErrorBody, extra: Record<string, string> = {}): void {
    if (socket.writable) {
      const json = JSON.stringify(body);
      const headers = { ...this.headersFor(id, json), ...extra, connection: 'close' };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\n${head}\r\n${json}`);
    }
    socket.destroySoon();
  }

  /** Node's `checkExpectation`: an `Expect` other than `100-continue`. */
  readonly expectationFailed = (request: IncomingMessage, response: ServerResponse): void => {
    const id = requestIdOf(request);
    this.send(response, id, {
      code: CODES.expectationFailed,
      message: 'the only expectation supported is Expect: 100-continue',
      status: 417,
    });
    this.record(id, request.method ?? 'UNKNOWN', request.url, { status: 417, code: CODES.expectationFailed });
  };

  /** An answer given by a router error handler, before any hook ran: counted and logged here. */
  recordRouterAnswer(id: string, method: string, url: string, body: ErrorBody): void {
    this.record(id, method, url, body);
  }

  private send(response: ServerResponse, id: string, body: ErrorBody): void {
    const json = JSON.stringify(body);
    response.writeHead(body.status, this.headersFor(id, json));
    response.end(json);
  }

  private headersFor(id: string, json: string): Record<string, string> {
    return {
      ...this.securityHeaders,
      'x-request-id': id,
      'content-type': JSON_CONTENT_TYPE,
      'content-length': String(Buffer.byteLength(json)),
    };
  }

  private record(
    id: string,
    method: string,
    url: string | undefined,
    body: Pick<ErrorBody, 'status' | 'code'>,
    reason?: string,
  ) {
    this.count(method, body.status);
    if (!this.logger.isLevelEnabled('info') || !RefusalLog.of(this.logger).admits(body.status)) return;
    const path = url === undefined ? undefined : pathOf(url);
    this.logger.info(
      {
        reqId: id,
        req: { id, method, path },
        route: 'unmatched',
        res: { statusCode: body.status },
        code: body.code,
        reason,
      },
      'request refused',
    );
  }
}
