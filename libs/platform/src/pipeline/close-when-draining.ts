import type { onSendHookHandler } from 'fastify';
import type { Drain } from '../lifecycle/drain.service';

/**
 * While the service drains for shutdown, every answer, those of requests
 * already in flight included, carries `Connection: close`, so that each
 * keep-alive connection ends after its current request instead of holding the
 * shutdown until its idle timeout.
 *
 * An answer given before the request's body was read (a 401 before parsing,
 * a 413 over the size limit) closes its connection too: otherwise Node reads
 * on and discards the rest of the body, and a body that never ends would get
 * a second, unsolicited answer (408) on the same connection later.
 */
export function closeWhenDraining(drain: Drain): onSendHookHandler {
  return (request, reply, payload, done) => {
    if ((drain.isDraining || !request.raw.complete) && request.raw.httpVersionMajor < 2) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  };
}
