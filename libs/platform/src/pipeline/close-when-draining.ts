import type { IncomingMessage } from 'node:http';
import type { onSendHookHandler } from 'fastify';
import type { Draining } from '../lifecycle/draining';

/**
 * While the service drains for shutdown, every answer, those of requests already in flight included, carries
 * `Connection: close`, so that each keep-alive connection ends after its current request instead of holding the
 * shutdown until its idle timeout.
 *
 * An answer given while part of the request's body is still to come (a 401 before parsing, a 413 over the size limit)
 * closes its connection too: otherwise Node reads on and discards the rest of the body, and a body that never ends
 * would get a second, unsolicited answer (408) on the same connection later. A request without a body (a GET for an
 * unknown route) keeps its connection: the client's next request can follow on it.
 */
export function closeWhenDraining(drain: Draining): onSendHookHandler {
  return (request, reply, payload, done) => {
    if ((drain.isDraining || bodyStillToCome(request.raw)) && request.raw.httpVersionMajor < 2) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  };
}

/**
 * Whether the request announced a body that has not all arrived. A refusal made before any of it is read (an
 * `onRequest` step) is sent while Node is still parsing the headers, so even a bodyless request is not `complete` yet.
 */
function bodyStillToCome(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const { 'content-length': length, 'transfer-encoding': encoding } = raw.headers;
  return encoding !== undefined || (length !== undefined && length !== '0');
}
