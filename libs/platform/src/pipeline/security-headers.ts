import type { onRequestHookHandler } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../config/app-config';
import { DOCS_PATH } from '../openapi/openapi';

/** The security headers of every answer: the API's, and the documentation page's. */
export interface SecurityHeaders {
  readonly api: Readonly<Record<string, string>>;
  readonly docs: Readonly<Record<string, string>>;
}

/**
 * The API's answers are JSON, never rendered as a page: they carry the set
 * OWASP's REST Security cheat sheet names for an API (a CSP that allows
 * nothing, no framing, no sniffing, no caching, no referrer; HSTS in
 * production), about 250 bytes. helmet's full set, with the CSP that Swagger
 * UI needs, is for the `/docs` page alone: sending it on every answer was 860
 * bytes of headers per response (docs/decisions/0011-api-security-headers.md).
 * Both are worked out once, at startup (0007).
 */
export function securityHeadersOf(config: AppConfig): SecurityHeaders {
  // SECURITY_HEADERS=off: a gateway in front adds them; none are sent, and no hook runs for them.
  if (!config.securityHeaders) return Object.freeze({ api: Object.freeze({}), docs: Object.freeze({}) });
  const hsts = config.nodeEnv === 'production';
  const api: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
  if (hsts) api['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return Object.freeze({ api: Object.freeze(api), docs: docsHeadersOf(hsts) });
}

function docsHeadersOf(hsts: boolean): Readonly<Record<string, string>> {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Swagger UI is also served over plain HTTP in development.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: hsts,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  applyHeaders({} as never, response as never, () => undefined);
  return Object.freeze(headers);
}

/** Sends the security headers: the documentation page's on `/docs`, the API's on everything else. */
export function sendSecurityHeaders(headers: SecurityHeaders): onRequestHookHandler {
  return (request, reply, done) => {
    reply.headers(request.url.startsWith(DOCS_PATH) ? headers.docs : headers.api);
    done();
  };
}

/** SECURITY_HEADERS=off: a gateway in front adds them, and the step is left out. */
export function hasSecurityHeaders(headers: SecurityHeaders): boolean {
  return Object.keys(headers.api).length > 0;
}
