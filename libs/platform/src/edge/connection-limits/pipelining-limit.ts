import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests one connection may have waiting at once: read, and their answers
 * not yet taken by the client. A client that pipelines keeps a few in flight;
 * one that sends thousands and reads nothing is attacking.
 */
export const MAX_WAITING_REQUESTS = 32;

const WAITING = Symbol('requests waiting on this connection');

type CountedSocket = Socket & { [WAITING]?: number };

/**
 * Bounds the work a client can queue on one connection by pipelining. Node
 * parses every request of a chunk it reads (64 KiB: about 1,900 short GETs)
 * and hands each to the application at once, holding back only their
 * answers; it stops reading only once answers pile up. A request counts as
 * waiting from the moment Node hands it over until its answer is handed to
 * the kernel, so the answers a client does not read count too. The request
 * past MAX_WAITING_REQUESTS closes the connection: it and the requests after
 * it never reach Fastify, and the answers not sent are dropped.
 * `onClosed` is told each time.
 */
export function limitPipelining(server: Server, onClosed: (request: IncomingMessage) => void): void {
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as CountedSocket;
    // The rest of a chunk already parsed when its connection was closed.
    if (socket.destroyed) return;
    const waiting = (socket[WAITING] ?? 0) + 1;
    if (waiting > MAX_WAITING_REQUESTS) {
      closeWithoutTraces(socket);
      onClosed(request);
      return;
    }
    socket[WAITING] = waiting;
    response.once('close', () => (socket[WAITING] = (socket[WAITING] ?? 1) - 1));
    for (const handler of handlers) handler.call(server, request, response);
  });
}

/**
 * Node's HTTP parser calls back into JavaScript only through these slots of
 * the parser object (headers, headers complete, body, message complete), and
 * skips a slot that holds no function. `_http_common` names them; a Node that
 * no longer does leaves floods slower to shed, not wrong.
 */
const PARSER_CALLBACKS: readonly number[] = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- Node's own module, untyped: read defensively.
    const { HTTPParser } = require('_http_common') as { HTTPParser: Record<string, number> };
    const slots = [
      HTTPParser.kOnHeaders,
      HTTPParser.kOnHeadersComplete,
      HTTPParser.kOnBody,
      HTTPParser.kOnMessageComplete,
    ];
    return slots.every((slot) => typeof slot === 'number') ? slots : [];
  } catch {
    return [];
  }
})();

type ParsingSocket = Socket & { parser?: Record<number, unknown> | null };

/**
 * Closes a flooding connection at once, and cheaply. Node goes on parsing the
 * chunk it is in (64 KiB: about 1,900 requests), making a request and a
 * response object for each, then aborts each with an Error of its own when the
 * connection closes. Measured for 60 such connections: 1.0-1.4 s with the
 * event loop blocked, where a probe had to wait. So the parser's callbacks
 * are taken away until the connection closes (it parses the rest of the chunk
 * into nothing, and the parser goes back to Node's pool with them restored),
 * and no stack trace is captured while Node aborts what is left (nothing
 * reads them). With both: 0.3-0.45 s (decision 0022).
 */
function closeWithoutTraces(socket: ParsingSocket): void {
  const parser = socket.parser ?? undefined;
  const callbacks = PARSER_CALLBACKS.map((slot) => parser?.[slot]);
  if (parser) for (const slot of PARSER_CALLBACKS) parser[slot] = undefined;
  let limit = Error.stackTraceLimit;
  // Before Node's own `close` handler, which returns the parser to its pool and aborts the requests left.
  socket.prependOnceListener('close', () => {
    if (parser) PARSER_CALLBACKS.forEach((slot, index) => (parser[slot] = callbacks[index]));
    limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
  });
  socket.once('close', () => (Error.stackTraceLimit = limit));
  socket.destroy();
}
