import type { IncomingMessage } from 'node:http';
import type { onSendHookHandler } from 'fastify';
import type { Draining } from '../lifecycle/draining';

/**
 * `Connection: close` on every answer while the service drains, so that each keep-alive connection ends after its
 * current request instead of holding the shutdown; and on an answer given while part of the body is still to come (a
 * 401, a 413), whose rest Node would read and discard, and whose never-ending body would get a second answer (408).
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
 * Whether the request announced a body not all arrived: a refusal in an `onRequest` step is sent while Node still
 * parses the headers, so even a bodyless request is not `complete` yet.
 */
function bodyStillToCome(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const { 'content-length': length, 'transfer-encoding': encoding } = raw.headers;
  return encoding !== undefined || (length !== undefined && length !== '0');
}
