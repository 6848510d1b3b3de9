import { WithRouteSettings, type DeprecationNotice } from './route-config';

/**
 * Marks an operation deprecated: every response it gives, errors and 401s
 * included, carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link`
 * to its successor (see {@link DeprecationHeaders}).
 */
export const Deprecated = (notice: DeprecationNotice): MethodDecorator =>
  WithRouteSettings({
    deprecation: {
      operationId: notice.operationId,
      sunsetDay: notice.sunset.toISOString().slice(0, 10),
      headers: {
        deprecation: `@${Math.floor(notice.since.getTime() / 1000)}`,
        sunset: notice.sunset.toUTCString(),
        link: `<${notice.successor}>; rel="successor-version"`,
      },
    },
  });
