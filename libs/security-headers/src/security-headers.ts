import helmet from 'helmet';
import type { SecurityHeaders } from '@app/platform';

/**
 * The API's answers are JSON, never rendered as a page: they carry the set
 * OWASP's REST Security cheat sheet names for an API (a CSP that allows
 * nothing, no framing, no sniffing, no caching, no referrer; HSTS in
 * production), about 250 bytes. helmet's full set, with the CSP that Swagger
 * UI needs, is for the `/docs` page alone: sending it on every answer was 860
 * bytes of headers per response (docs/decisions/0011-api-security-headers.md).
 * Both are worked out once, at startup (0007).
 */
export function securityHeadersOf(hsts: boolean): SecurityHeaders {
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
