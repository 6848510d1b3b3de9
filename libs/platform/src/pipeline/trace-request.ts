import type { onRequestHookHandler, onResponseHookHandler, preHandlerHookHandler } from 'fastify';
import type { RequestTracing } from '../http/request-tracing';

/** The request's span starts before any other step, and the steps up to the body run with it current. */
export function traceRequest(tracing: RequestTracing): onRequestHookHandler {
  return (request, reply, done) => {
    tracing.start(request, reply);
    tracing.within(request, done);
  };
}

/** The handler runs with the span current again: reading the body has lost it. */
export function resumeTrace(tracing: RequestTracing): preHandlerHookHandler {
  return (request, _reply, done) => tracing.within(request, done);
}

/** The span ends once the answer is sent, with its status. */
export function endTrace(tracing: RequestTracing): onResponseHookHandler {
  return (request, reply, done) => {
    tracing.end(request, reply);
    done();
  };
}
