import { WithRouteSettings, type DeprecationNotice } from './route-config';

/**
 * Marks an operation deprecated: every response it gives, errors and 401s
 * included, carries `Deprecation`, `Sunset` and a `Link` to its successor
 * (see {@link DeprecationHeaders}).
 */
export const Deprecated = (notice: DeprecationNotice): MethodDecorator => WithRouteSettings({ deprecation: notice });
