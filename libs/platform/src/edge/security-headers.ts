import helmet from 'helmet';
import type { onRequestHookHandler } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { DOCS_PATH } from '../openapi/openapi';

/**
 * The security headers of every answer, unless `SECURITY_HEADERS=off` (a gateway in front adds its own): then none
 * are sent, and no step runs for them. HSTS in production only.
 */
export class SecurityHeaders {
  /** On every answer but the documentation page's, the edge's refusals included. */
  readonly api: Readonly<Record<string, string>>;
  /** On `/docs` and its assets (Swagger UI's CSP). */
  readonly docs: Readonly<Record<string, string>>;

  /**
   * The API's answers are JSON, never rendered as a page: they carry the set OWASP's REST Security cheat sheet names
   * for an API (a CSP that allows nothing, no framing, no sniffing, no caching, no referrer; HSTS when asked), about
   * 250 bytes. helmet's full set, with the CSP that Swagger UI needs, is for the `/docs` page alone (decision 0011).
   * Both are worked out once, at startup (0007).
   */
  constructor(hsts: boolean) {
    const api: Record<string, string> = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
    };
    if (hsts) api['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
    this.api = Object.freeze(api);
    this.docs = docsHeadersOf(hsts);
  }

  /** Reads SECURITY_HEADERS (`on`, `off`); throws a ConfigError naming it. `undefined`: none are sent. */
  static of({ settings, nodeEnv }: AppConfig): SecurityHeaders | undefined {
    if (settings.oneOf('SECURITY_HEADERS', ['on', 'off'], 'on') === 'off') return undefined;
    return new SecurityHeaders(nodeEnv === 'production');
  }

  /** The pipeline's step: the documentation page's set on `/docs`, the API's on everything else. */
  readonly send: onRequestHookHandler = (request, reply, done) => {
    reply.headers(request.url.startsWith(DOCS_PATH) ? this.docs : this.api);
    done();
  };
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
