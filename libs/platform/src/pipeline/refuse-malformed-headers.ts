import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';

/**
 * Fields a request carries at most once (RFC 9110 5.3), besides those modules read `once` (their `@OperationContract()`). Node
 * keeps the first and drops the rest, which a proxy in front may have read: two `Host`s route one way and are served
 * another (RFC 9112 3.2 asks for a 400), two `Authorization`s are judged on the first alone.
 */
const SINGLETONS = ['Host', 'Authorization', 'Content-Type', 'Content-Length'];

/** `uri-host [ ":" port ]` (RFC 3986 3.2.2): an IP literal, or a name of unreserved, sub-delims and %-escapes. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/;

/**
 * 400 `bad_request`, before anything reads them, for an HTTP/1.1 request without `Host` or with a `Host` that is no
 * host, for a single-valued field given twice, and for a transfer coding besides `chunked`: Node decodes `chunked`
 * alone and would read `gzip, chunked` as plain (RFC 9112 6.1 lets a server refuse a coding it does not take).
 */
export function refuseMalformedHeaders(readOnce: Iterable<string>): onRequestHookHandler {
  const singletons = new Map([...SINGLETONS, ...readOnce].map((name) => [name.toLowerCase(), name]));
  return (request, _reply, done) => {
    const coding = request.headers['transfer-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') {
      return done(badRequest('Transfer-Encoding may only be chunked: no other coding is taken'));
    }
    const { host } = request.headers;
    if (host === undefined) {
      if (request.raw.httpVersion !== '1.1') return done();
      return done(badRequest('an HTTP/1.1 request must carry a Host header'));
    }
    if (!HOST.test(host)) return done(badRequest('the Host header must be a host name or address, and a port'));
    const raw = request.raw.rawHeaders;
    // Node gives each field once in `headers`: as many names there as in the raw list, and none was repeated.
    if (raw.length / 2 > Object.keys(request.headers).length) {
      const seen = new Set<string>();
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i].toLowerCase();
        if (!singletons.has(name)) continue;
        if (seen.has(name)) return done(badRequest(`the ${singletons.get(name)} header may be given only once`));
        seen.add(name);
      }
    }
    done();
  };
}

function badRequest(message: string): AppError {
  return new AppError('invalid', PLATFORM_ERROR_CODES.badRequest, message);
}
