import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { API_PREFIX, WithRouteSettings } from '@app/platform';

/** What a deprecated route carries in its Fastify config, worked out once when the route is declared. */
export interface DeprecatedRoute {
  operationId: string;
  /** The sunset day (`2030-12-05`), a metrics label. */
  sunsetDay: string;
  /** `Deprecation`, `Sunset` and `Link`, for every response. */
  headers: Readonly<Record<string, string>>;
}

export interface DeprecationNotice {
  /** The operation's name in the contract (`getThing`), for metrics. */
  operationId: string;
  /** When the operation was deprecated (RFC 9745 `Deprecation`). */
  since: Date;
  /** When it stops being served (RFC 8594 `Sunset`). */
  sunset: Date;
  /** The path of the operation that replaces it, relative to the API prefix (`/things`). */
  successor: string;
}

/** The OpenAPI extension that carries a deprecation into the document (deprecation.document.ts), which drops it. */
export const DEPRECATION_EXTENSION = 'x-deprecation-headers';

/**
 * Marks an operation deprecated, in one declaration: every response it gives,
 * errors and 401s included, carries `Deprecation` (RFC 9745), `Sunset` (RFC
 * 8594) and a `Link` to its successor; the OpenAPI document marks it
 * `deprecated` and declares those headers on each of its responses; and its
 * calls are counted by caller in the metrics.
 */
export function Deprecated(notice: DeprecationNotice): MethodDecorator {
  const headers = {
    deprecation: `@${Math.floor(notice.since.getTime() / 1000)}`,
    sunset: notice.sunset.toUTCString(),
    link: `<${API_PREFIX}${notice.successor}>; rel="successor-version"`,
  };
  const deprecation: DeprecatedRoute = {
    operationId: notice.operationId,
    sunsetDay: notice.sunset.toISOString().slice(0, 10),
    headers,
  };
  return applyDecorators(WithRouteSettings({ deprecation }), ApiExtension(DEPRECATION_EXTENSION, headers));
}
