/**
 * The security headers of every answer, worked out once at startup: a port a capability provides (the security-headers
 * library, unless SECURITY_HEADERS=off). Without one, none are sent and no step runs for them.
 */
export abstract class SecurityHeaders {
  /** On every answer but the documentation page's, the edge's refusals included. */
  abstract readonly api: Readonly<Record<string, string>>;
  /** On `/docs` and its assets (Swagger UI's CSP). */
  abstract readonly docs: Readonly<Record<string, string>>;
}
