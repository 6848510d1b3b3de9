/**
 * The security headers of every answer: a port the security-headers library provides unless SECURITY_HEADERS=off;
 * without one, none are sent.
 */
export abstract class SecurityHeaders {
  /** On every answer but the documentation page's, the edge's refusals included. */
  abstract readonly api: Readonly<Record<string, string>>;
  /** On `/docs` and its assets (Swagger UI's CSP). */
  abstract readonly docs: Readonly<Record<string, string>>;
}
