import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { API_PREFIX } from '../config/api-prefix';
import { WithRouteSettings, type DeprecationNotice } from './route-config';

/**
 * The OpenAPI extension that carries a deprecation into the document builder,
 * which marks the operation deprecated and declares the headers on each of its
 * responses (openapi/openapi.ts), then drops the extension.
 */
export const DEPRECATION_EXTENSION = 'x-deprecation-headers';

/**
 * Marks an operation deprecated, in one declaration: every response it gives,
 * errors and 401s included, carries `Deprecation` (RFC 9745), `Sunset` (RFC
 * 8594) and a `Link` to its successor (see {@link DeprecationHeaders}); the
 * OpenAPI document marks it `deprecated` and declares those headers on each
 * of its responses; and its calls are counted by caller in the metrics.
 */
export function Deprecated(notice: DeprecationNotice): MethodDecorator {
  const headers = {
    deprecation: `@${Math.floor(notice.since.getTime() / 1000)}`,
    sunset: notice.sunset.toUTCString(),
    link: `<${API_PREFIX}${notice.successor}>; rel="successor-version"`,
  };
  return applyDecorators(
    WithRouteSettings({
      deprecation: { operationId: notice.operationId, sunsetDay: notice.sunset.toISOString().slice(0, 10), headers },
    }),
    ApiExtension(DEPRECATION_EXTENSION, headers),
  );
}
